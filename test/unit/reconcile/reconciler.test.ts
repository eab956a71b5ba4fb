import { describe, expect, it } from 'vitest';
import { normalizeLedgerEvent } from '../../../src/normalize/ledger.js';
import { normalizePayment } from '../../../src/normalize/payment.js';
import type { LedgerRow, PaymentRow, SummaryBucketRow, WalletRow } from '../../../src/model/rows.js';
import { HashTotal } from '../../../src/reconcile/controls.js';
import { hasErrors } from '../../../src/reconcile/findings.js';
import { Reconciler } from '../../../src/reconcile/reconciler.js';
import type { Finding } from '../../../src/model/results.js';
import type { Window } from '../../../src/model/window.js';
import { ledger as L, payment, type PaymentSpec } from '../../support/wire/builders.js';
import { usd } from '../../support/wire/examples.js';

const ORG = 'org';
const ENV = 'env';
const window: Window = { from: '2026-10-01T00:00:00.000000Z', to: '2026-11-01T00:00:00.000000Z', tz: 'UTC' };
const NOW = '2026-11-01T06:00:00.000000Z';

function wallet(id: string, balances: Array<{ currency: string; total: bigint; at?: string }> = [], loc: string | null = null): WalletRow {
  return {
    wallet_id: id,
    organization_id: ORG,
    environment_id: ENV,
    name: id,
    active: true,
    network: 'mainnet',
    line_of_credit_id: loc,
    limit_base: null,
    created_at: '2025-01-01T00:00:00.000000Z',
    updated_at: '2025-01-01T00:00:00.000000Z',
    deleted_at: null,
    metadata: null,
    fee_policy: null,
    balances: balances.map((b) => ({ currency: b.currency, unit: b.currency === 'btc' ? 'msats' : 'cents', available_base: b.total, total_base: b.total, effective_time: b.at ?? NOW })),
    flags: [],
    raw: {},
  };
}

const pay = (walletId: string, spec: Omit<PaymentSpec, 'wallet' | 'environment' | 'organization'>): PaymentRow =>
  normalizePayment(payment({ wallet: walletId, environment: ENV, organization: ORG, ...spec }), { organization_id: ORG, environment_id: ENV });
const led = (walletId: string, event: Record<string, unknown>): LedgerRow => normalizeLedgerEvent(event, { organization_id: ORG, environment_id: ENV, wallet_id: walletId });

async function run(options: {
  wallets: WalletRow[];
  ledger?: Record<string, LedgerRow[]>;
  payments?: Record<string, PaymentRow[]>;
  summaries?: SummaryBucketRow[];
  known?: string[];
}) {
  const r = new Reconciler({ window, now: NOW, wallets: options.wallets, assets: [], summaries: options.summaries ?? [] });
  for (const w of options.wallets) {
    r.startWallet(w);
    r.addLedger(options.ledger?.[w.wallet_id] ?? []);
    r.addPayments(options.payments?.[w.wallet_id] ?? []);
    await r.endWallet(async (ids) => new Set(ids.filter((id) => options.known?.includes(id))));
  }
  return r.finish();
}
const keys = (findings: Finding[]) => findings.map((f) => `${f.check_id}|${f.subject_id}`);

describe('Reconciler protocol', () => {
  it('refuses a window that is not canonical UTC or not ordered', () => {
    expect(() => new Reconciler({ window: { ...window, from: '2026-10-01T00:00:00Z' }, now: NOW, wallets: [], assets: [], summaries: [] })).toThrow(RangeError);
    expect(() => new Reconciler({ window: { ...window, to: window.from }, now: NOW, wallets: [], assets: [], summaries: [] })).toThrow(RangeError);
  });

  it('throws on misuse: the ledger after payments, another wallet, finish before endWallet, a wallet twice', async () => {
    const w = wallet('w');
    const r = new Reconciler({ window, now: NOW, wallets: [w], assets: [], summaries: [] });
    expect(() => r.addLedger([])).toThrow(/outside startWallet/);
    r.startWallet(w);
    expect(() => r.addPayments([pay('other', { id: 'p', direction: 'send', created: '2026-10-02T00:00:00Z', amount: 1n })])).toThrow(/wallet other/);
    r.addPayments([]);
    expect(() => r.addLedger([])).toThrow(/addLedger after addPayments/);
    expect(() => r.finish()).toThrow(/before endWallet/);
    await r.endWallet(async () => new Set());
    expect(() => r.startWallet(w)).toThrow(/twice/);
    expect(() => r.startWallet(wallet('stranger'))).toThrow(/not among/);
    r.finish();
    expect(() => r.finish()).toThrow(/finished/);
  });

  it('refuses to finish with a wallet in scope never reconciled', () => {
    const r = new Reconciler({ window, now: NOW, wallets: [wallet('a'), wallet('b')], assets: [], summaries: [] });
    expect(() => r.finish()).toThrow(/never reconciled: a, b/);
  });

  it('an empty run passes every check that ran, and never one that could not run (no summaries, no bills)', async () => {
    const result = await run({ wallets: [] });
    expect(result.findings).toEqual([]);
    expect(hasErrors(result.findings)).toBe(false);
    const notRun = result.checks.filter((c) => c.skipped_reason);
    expect(notRun.map((c) => c.check_id).every((id) => id.startsWith('summary.') || id.startsWith('bill.'))).toBe(true);
    expect(result.checks.find((c) => c.check_id === 'summary.total')).toMatchObject({ passed: false, skipped_reason: expect.stringMatching(/no payment summaries/) });
    for (const c of result.checks) expect(c.passed, c.check_id).toBe(!c.skipped_reason);
  });
});

describe('payment ↔ ledger joins', () => {
  it('joins by the receipts/exchanges ledger_id even when the entry names no payment id we know', async () => {
    const p = pay('w', { id: 'p1', direction: 'send', created: '2026-10-02T00:00:00Z', amount: 1_000n, fees: 0n, ledgerId: 'hold-x' });
    const result = await run({
      wallets: [wallet('w')],
      payments: { w: [p] },
      ledger: { w: [led('w', L.captured('hold-x', 'p1-alias', 1_000n, '2026-10-02T00:01:00Z'))] },
      known: ['p1-alias'],
    });
    expect(result.findings).toEqual([]);
  });

  it('a wallet ended before the snapshot is complete: its unknown payment ids are looked up once every wallet is in', async () => {
    const r = new Reconciler({ window, now: NOW, wallets: [wallet('a'), wallet('b')], assets: [], summaries: [] });
    r.startWallet(wallet('a'));
    // a's entry names b's payment, which the pull has not read yet when a is ended
    r.addLedger([led('a', L.captured('h1', 'pb', 5n, '2026-10-03T00:00:00Z')), led('a', L.captured('h2', 'nowhere', 5n, '2026-10-03T00:00:00Z'))]);
    await r.endWallet();
    r.startWallet(wallet('b'));
    await r.endWallet();
    expect(() => r.finish()).toThrow(/resolveUnknown/);
    const asked: string[][] = [];
    await r.resolveUnknown(async (ids) => {
      asked.push([...ids]);
      return new Set(ids.filter((id) => id === 'pb'));
    });
    expect(asked).toEqual([['nowhere', 'pb']]);
    expect(keys(r.finish().findings)).toEqual(['completeness.ledger_without_payment|nowhere']);
  });

  it('reports a ledger entry in another currency than its payment', async () => {
    const p = pay('w', { id: 'p1', direction: 'send', created: '2026-10-02T00:00:00Z', amount: 1_000n, fees: 0n, ledgerId: 'h' });
    const result = await run({ wallets: [wallet('w')], payments: { w: [p] }, ledger: { w: [led('w', L.captured('h', 'p1', 1_000n, '2026-10-02T00:01:00Z', 'usd'))] } });
    expect(keys(result.findings)).toEqual(['payment.ledger_match|p1']);
    expect(result.findings[0]?.message).toContain('in usd, payment in btc');
  });

  it('a failed or expired receive with a credit moved money', async () => {
    const p = pay('w', { id: 'p1', direction: 'receive', status: 'expired', created: '2026-10-02T00:00:00Z', amount: 1_000n });
    const result = await run({ wallets: [wallet('w')], payments: { w: [p] }, ledger: { w: [led('w', L.credited('c', 'p1', 1_000n, '2026-10-02T00:01:00Z'))] } });
    expect(keys(result.findings)).toEqual(['payment.failed_moved_money|p1']);
  });

  it('entries of a payment created before the window are fine when the snapshot knows it, and only in-window entries are tested', async () => {
    const ledger = [led('w', L.captured('h0', 'old', 5n, '2026-10-01T00:00:00Z')), led('w', L.captured('h9', 'older', 5n, '2026-09-30T23:59:59.999999Z'))];
    expect((await run({ wallets: [wallet('w')], ledger: { w: ledger }, known: ['old'] })).findings).toEqual([]);
    expect(keys((await run({ wallets: [wallet('w')], ledger: { w: ledger } })).findings)).toEqual(['completeness.ledger_without_payment|old']);
  });

  it('asks the snapshot in chunks of at most 1,000 ids', async () => {
    const ledger = Array.from({ length: 2_500 }, (_, i) => led('w', L.captured(`h${i}`, `p${String(i).padStart(4, '0')}`, 1n, '2026-10-05T00:00:00Z')));
    const asked: number[] = [];
    const r = new Reconciler({ window, now: NOW, wallets: [wallet('w')], assets: [], summaries: [] });
    r.startWallet(wallet('w'));
    r.addLedger(ledger);
    await r.endWallet(async (ids) => {
      asked.push(ids.length);
      return new Set(ids);
    });
    expect(asked).toEqual([1_000, 1_000, 500]);
    expect(r.finish().findings).toEqual([]);
  });
});

describe('balances', () => {
  it('puts an entry at `from` in the window and one at `to` after it; the API balance time is inclusive', async () => {
    const ledger = [
      led('w', L.deposited('a', 100n, '2026-09-30T23:59:59.999999Z')),
      led('w', L.deposited('b', 10n, '2026-10-01T00:00:00.000000Z')),
      led('w', L.withdrawn('c', 3n, '2026-10-15T00:00:00Z')),
      led('w', L.deposited('d', 1n, '2026-11-01T00:00:00.000000Z')),
      led('w', L.deposited('e', 1_000n, '2026-11-01T06:00:00.000001Z')), // after the API balance's time
    ];
    const result = await run({ wallets: [wallet('w', [{ currency: 'btc', total: 108n }])], ledger: { w: [...ledger].reverse() } });
    expect(result.balances).toEqual([
      // a past window: closing 107 + movements since 1 = the API balance now 108 (the bridge), and today's
      // balance is not shown beside October's closing
      expect.objectContaining({ currency: 'btc', opening_base: 100n, credits_base: 10n, debits_base: 3n, closing_base: 107n, entries: 2, balance_check: 'bridge', api_balance_base: null, difference_base: null, movements_since_base: 1n, api_balance_now_base: 108n, bridge_difference_base: 0n, ledger_at_api_time_base: 108n, unknown_entries: 0 }),
    ]);
    expect(result.findings).toEqual([]);
  });

  it('a currency the API does not list must sum to zero; a wallet listing no balances is not compared', async () => {
    const ledger = [led('w', L.deposited('a', 100n, '2026-10-02T00:00:00Z', 'usd'))];
    const listed = await run({ wallets: [wallet('w', [{ currency: 'btc', total: 0n }])], ledger: { w: ledger } });
    // the deposit is also in a currency the BTC wallet does not hold
    expect(keys(listed.findings)).toEqual(['balance.api_total|w', 'data.currency_mismatch|deposited:a']);
    expect(listed.findings[0]?.message).toContain('lists no usd balance');
    const none = await run({ wallets: [wallet('w')], ledger: { w: ledger } });
    expect(none.findings).toEqual([]);
    // no balance compared at all: balance.api_total did not run, and is not shown as passed
    expect(none.checks.find((c) => c.check_id === 'balance.api_total')).toMatchObject({ passed: false, evaluated: 0, skipped_reason: expect.stringMatching(/no wallet balance of the service could be compared/) });
    expect(listed.checks.find((c) => c.check_id === 'balance.api_total')).toMatchObject({ skipped_reason: null });
  });
});

describe('summaries', () => {
  const total = (scope: SummaryBucketRow['scope'], id: string, n: bigint, flags: string[] = []): SummaryBucketRow => ({
    scope, scope_id: id, environment_id: ENV, direction: null, status: null, currency: null, kind: null, api_count: n, oldest_created_at: null, newest_created_at: null, flags,
  });
  const p1 = pay('w', { id: 'p1', direction: 'send', status: 'failed', created: '2026-10-02T00:00:00Z', amount: 1n });

  it('compares a line of credit the API left out when its environment was summarised', async () => {
    const result = await run({ wallets: [wallet('w', [], 'loc')], payments: { w: [p1] }, summaries: [total('environment', ENV, 1n), total('wallet', 'w', 1n), { ...total('wallet', 'w', 1n), direction: 'send', status: 'failed', currency: 'btc', kind: 'bolt11' }] });
    expect(keys(result.findings)).toEqual(['summary.bucket|line_of_credit:loc:send/failed/btc/bolt11', 'summary.total|line_of_credit:loc']);
  });

  it('compares the summary of a wallet nobody listed, and an unreadable count is never a match', async () => {
    const result = await run({ wallets: [wallet('w')], payments: { w: [p1] }, summaries: [total('wallet', 'w', 0n, ['malformed_value:total_count']), total('wallet', 'ghost', 2n)] });
    expect(keys(result.findings)).toEqual(['data.malformed_value|wallet:w', 'summary.bucket|wallet:w:send/failed/btc/bolt11', 'summary.total|wallet:ghost', 'summary.total|wallet:w']);
    expect(result.summaryChecks.find((s) => s.scope_id === 'w' && s.direction === null)).toMatchObject({ api_count: null, computed_count: 1n, ok: false });
  });
});

describe('control totals', () => {
  it('hash totals are order-independent and catch a substitution', () => {
    const a = new HashTotal();
    const b = new HashTotal();
    const c = new HashTotal();
    for (const id of ['p1', 'p2', 'p3']) a.add(id);
    for (const id of ['p3', 'p1', 'p2']) b.add(id);
    for (const id of ['p1', 'p2', 'p4']) c.add(id);
    expect(a.hex()).toBe(b.hex());
    expect(a.hex()).not.toBe(c.hex());
    expect(new HashTotal().hex()).toBe('0'.repeat(64));
  });

  it('counts every payment, sums completed ones per currency', async () => {
    const rows = [
      pay('w', { id: 'a', direction: 'send', created: '2026-10-02T00:00:00Z', amount: 100n, fees: 5n, ledgerId: 'ha' }),
      pay('w', { id: 'b', direction: 'send', status: 'failed', created: '2026-10-03T00:00:00Z', amount: 999n }),
      pay('w', { id: 'c', direction: 'receive', status: 'receiving', created: '2026-10-04T00:00:00Z', amount: 7n, currency: 'usd', unit: usd }),
    ];
    const result = await run({ wallets: [wallet('w')], payments: { w: rows }, ledger: { w: [led('w', L.captured('ha', 'a', 105n, '2026-10-02T00:01:00Z'))] } });
    expect(result.controlTotals['btc']).toMatchObject({ payments: 2, completed_payments: 1, failed_payments: 1, principal_base: 100n, network_fee_base: 5n, total_base: 105n, ledger_entries: 1, ledger_debits_base: 105n });
    expect(result.controlTotals['usd']).toMatchObject({ payments: 1, open_payments: 1, completed_payments: 0 });
    expect(result.openItems.map((o) => o.payment_id)).toEqual(['c']);
  });
});
