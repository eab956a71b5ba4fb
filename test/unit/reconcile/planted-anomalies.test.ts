/**
 * Reconciliation over a hand-built dataset: one environment, three wallets (BTC on a line of
 * credit, USD on the same line, a node-backed BTC wallet), clean activity of every shape, and one
 * planted anomaly per check. Every planted anomaly must be found, and nothing else.
 * The data enters as wire objects and goes through the normalizers, like a real run.
 */
import { describe, expect, it } from 'vitest';
import { normalizeLedgerEvent } from '../../../src/normalize/ledger.js';
import { normalizePayment } from '../../../src/normalize/payment.js';
import type { LedgerRow, PaymentRow, SummaryBucketRow, WalletRow } from '../../../src/model/rows.js';
import { normalizeSummary } from '../../../src/normalize/summary.js';
import { normalizeWallet } from '../../../src/normalize/wallet.js';
import { CHECKS } from '../../../src/reconcile/catalogue.js';
import { hasErrors } from '../../../src/reconcile/findings.js';
import { Reconciler } from '../../../src/reconcile/reconciler.js';
import type { ReconcileResult } from '../../../src/model/results.js';
import type { Window } from '../../../src/model/window.js';
import { btc, usd } from '../../support/wire/examples.js';
import { ledger as L, payment, type PaymentSpec, type WireObject } from '../../support/wire/builders.js';

const ORG = 'org-1';
const ENV = 'env-1';
const LOC = 'loc-1';
const W1 = 'w1-btc';
const W2 = 'w2-usd';
const W3 = 'w3-node';
const window: Window = { from: '2026-10-01T00:00:00.000000Z', to: '2026-11-01T00:00:00.000000Z', tz: 'UTC' };
const NOW = '2026-11-02T00:00:00.000000Z';

const pad = (n: number): string => String(n).padStart(2, '0');
const oct = (day: number, minute = 0): string => `2026-10-${pad(day)}T12:${pad(minute)}:00Z`;
const rate = { from: 'usd', to: 'btc', rate: '6500000e0', quoted_at: '2026-10-03T11:59:00Z' };

const base = (wallet: string) => ({ wallet, environment: ENV, organization: ORG });
const send = (wallet: string, spec: Omit<PaymentSpec, 'wallet' | 'environment' | 'organization' | 'direction'>) => payment({ ...base(wallet), direction: 'send', ...spec });
const receive = (wallet: string, spec: Omit<PaymentSpec, 'wallet' | 'environment' | 'organization' | 'direction'>) => payment({ ...base(wallet), direction: 'receive', ...spec });

// ---------------------------------------------------------------------------------------------
// W1: BTC wallet on the line of credit

const w1Payments: WireObject[] = [
  // clean: send with settled breakdown and terms, receive with payer-paid fee, legacy-only on-chain send, treasury receive
  send(W1, {
    id: 'p01', created: oct(2), amount: 1_000_000n, settled: { network: 2_000n, processing: 10_000n }, terms: { bps: 100, amount: 10_000n }, fees: 12_000n, maxFee: 20_000n, ledgerId: 'h01',
    extra: (p) => { p.data['foo'] = 'bar'; }, // planted: an undocumented field → data.unknown_field (info)
  }),
  receive(W1, { id: 'p02', created: oct(3), amount: 500_000n, terms: { bps: 250, amount: 12_500n }, settled: { network: 0n, processing: 12_500n }, fees: 12_500n, ledgerId: 'c02' }),
  send(W1, {
    id: 'p03', created: oct(4), type: 'onchain', amount: 0n, ledgerId: 'unused',
    extra: (p) => {
      // an old on-chain record: only the deprecated whole-sat fields, no Amount objects
      p.data = { amount_sats: 300, fee_sats: 2, max_fee_sats: 10, label: 'old', outflows: [{ type: 'onchain', data: { tx_id: 'tx03', amount_sats: 300, required_confirmations_num: 1, ledger_id: 'h03' } }] };
    },
  }),
  receive(W1, { id: 'p04', created: oct(5), category: 'treasury', amount: 2_000_000n, ledgerId: 'c04' }),
  send(W1, { id: 'p05', created: oct(6), status: 'failed', amount: 50_000n, ledgerId: 'h05', extra: (p) => { p['error'] = { type: 'send_failed', code: 'no_route', detail: 'no route' }; } }),
  receive(W1, { id: 'p06', created: oct(7), status: 'expired', amount: 70_000n }),
  send(W1, { id: 'p07', created: oct(30), status: 'sending', amount: 10_000n, ledgerId: 'h07' }),
  // planted anomalies
  send(W1, { id: 'p10', created: oct(10), amount: 200_000n, settled: { network: 100n, processing: 0n }, fees: 100n, ledgerId: 'h10' }), // capture off by 1
  receive(W1, { id: 'p11', created: oct(11), amount: 300_000n, ledgerId: 'c11' }), // no credit at all
  send(W1, { id: 'p18', created: oct(18), amount: 99_950n, terms: { bps: 100, amount: 1_000n }, settled: { network: 0n, processing: 999n }, fees: 999n, ledgerId: 'h18' }), // settled ≠ terms
  send(W1, { id: 'p19', created: oct(19), amount: 100_000n, terms: { bps: 20, amount: 200n }, settled: { network: 100n, processing: 200n }, fees: 400n, ledgerId: 'h19' }), // data.fees ≠ network + processing
  receive(W1, { id: 'p21', created: oct(21), amount: 40_000n, settled: { network: 300n, processing: 0n }, ledgerId: 'c21' }), // network fee on a receive
  send(W1, { id: 'p22', created: oct(22), amount: 50_000n, fees: 0n, ledgerId: 'h22', extra: (p) => { p.data['amount_msats'] = 50_001; } }), // legacy twin disagrees
  send(W1, { id: 'p33', created: oct(23), amount: 300_000n, settled: { network: 50n, processing: 600n }, fees: 650n, ledgerId: 'h33' }), // the capture's own breakdown disagrees
];

/** A ledger event's own payment_breakdown (OpenAPI WalletPaymentBreakdown). */
const withBreakdown = (event: WireObject, principal: bigint, network: bigint, processing: bigint, bps: number): WireObject => ({
  ...event,
  payment_breakdown: { principal: btc(principal), network_fee: btc(network), processing_fee: { amount: btc(processing), basis_points: bps, payment_classification: { kind: 'bolt11', route: 'direct' } } },
});

const w1Ledger: WireObject[] = [
  L.deposited('d01', 10_000_000_000n, '2026-09-15T00:00:00Z'),
  L.held('h00', 'p00', 2_000n, '2026-09-30T23:00:00Z'), // p00 was created in September: known to the snapshot
  L.captured('h00', 'p00', 2_000n, '2026-10-01T00:30:00Z'),
  L.held('h01', 'p01', 1_020_000n, oct(2, 0)),
  { ...withBreakdown(L.captured('h01', 'p01', 1_012_000n, oct(2, 1)), 1_000_000n, 2_000n, 10_000n, 100), foo: 1 }, // planted: undocumented ledger field
  L.credited('c02', 'p02', 500_000n, oct(3, 1)),
  L.legacyCaptured('h03', 'p03', 302_000n, oct(4, 1)), // the legacy ledger shape, uppercase BTC
  L.credited('c04', 'p04', 2_000_000n, oct(5, 1)),
  L.held('h05', 'p05', 51_000n, oct(6, 0)),
  L.released('h05', 'p05', oct(6, 5)),
  L.held('h07', 'p07', 11_000n, oct(30, 1)),
  L.withdrawn('wd1', 100_000n, oct(8)),
  L.held('h10', 'p10', 210_000n, oct(10, 0)),
  L.captured('h10', 'p10', 200_101n, oct(10, 1)),
  L.held('h12', 'x12', 5_000n, oct(12, 0)), // planted: entries of a payment nobody knows
  L.captured('h12', 'x12', 5_000n, oct(12, 1)),
  L.captured('h18', 'p18', 100_949n, oct(18, 1)),
  L.captured('h19', 'p19', 100_300n, oct(19, 1)),
  L.credited('c21', 'p21', 40_000n, oct(21, 1)),
  L.captured('h22', 'p22', 50_000n, oct(22, 1)),
  withBreakdown(L.captured('h33', 'p33', 300_650n, oct(23, 1)), 300_000n, 0n, 650n, 20),
  L.deposited('d99', 1_000n, '2026-11-01T08:00:00Z'), // after the window: closing excludes it, the API balance includes it
];

// ---------------------------------------------------------------------------------------------
// W2: USD wallet on the same line of credit (cross-currency)

const w2Payments: WireObject[] = [
  send(W2, {
    id: 'p32', created: oct(2), currency: 'usd', unit: usd, amount: 650n, terms: { bps: 100, amount: 7n }, settled: { network: 0n, processing: 7n }, fees: 7n, maxFee: 65n, ledgerId: 'hu32',
    extra: (p) => Object.assign(p.data, { amount_msats: 10_000_000, fee_msats: 107_692, max_fee_msats: 1_000_000, market_quote: rate }),
  }),
  send(W2, {
    id: 'p23', created: oct(3), currency: 'usd', unit: usd, amount: 700n, fees: 0n, maxFee: 100n, ledgerId: 'hu23',
    extra: (p) => Object.assign(p.data, { amount_msats: 10_000_000, fee_msats: 0, max_fee_msats: 1_000_000, market_quote: rate }), // 10M msats is $6.50, not $7.00
  }),
  receive(W2, { id: 'p24', created: oct(4), currency: 'usd', unit: usd, amount: 1_000n, ledgerId: 'cu24', extra: (p) => { p['frozen'] = [{ type: 'credit_reversal', data: { amount: usd(100), reason: 'review' } }]; } }),
  send(W2, { id: 'p25', created: oct(5), currency: 'usd', unit: usd, status: 'failed', amount: 300n, extra: (p) => { delete p['updated_at']; } }),
  send(W2, { id: 'p26', created: oct(6), currency: 'usd', unit: usd, status: 'failed', amount: 300n, terms: { bps: 100.5, amount: 3n } }),
  receive(W2, { id: 'p30', created: oct(8), currency: 'usd', unit: usd, status: 'settling_v2', amount: 900n }),
  receive(W2, { id: 'p31', created: oct(10), currency: 'usd', unit: usd, amount: 2_000n, ledgerId: 'cu31', extra: (p) => { p['environment_id'] = 'env-other'; } }),
];

const w2Ledger: WireObject[] = [
  L.deposited('d02', 100_000n, '2026-09-20T00:00:00Z', 'usd'),
  L.held('hu32', 'p32', 700n, oct(2, 0), 'usd'),
  L.captured('hu32', 'p32', 657n, oct(2, 1), 'usd'),
  L.captured('hu23', 'p23', 700n, oct(3, 1), 'usd'),
  L.credited('cu24', 'p24', 1_000n, oct(4, 1), 'usd'),
  L.deposited('d29', 500n, oct(9), 'usd', true), // planted: a negative deposit
  L.credited('cu31', 'p31', 2_000n, oct(10, 1), 'usd'),
];

// ---------------------------------------------------------------------------------------------
// W3: node-backed BTC wallet (no line of credit, no wallet summary)

const w3Payments: WireObject[] = [
  send(W3, { id: 'p13', created: oct(13), status: 'failed', amount: 10_000n, ledgerId: 'h13' }), // captured although failed
  send(W3, { id: 'p14', created: oct(14), status: 'failed', amount: 5_000n, ledgerId: 'h14' }), // hold never released
  send(W3, { id: 'p15', created: oct(15), amount: 20_000n, ledgerId: 'h15' }), // no fees reported at all
  send(W3, { id: 'p16', created: oct(16), amount: 100_000n, settled: { network: 5_000n, processing: 0n }, fees: 5_000n, maxFee: 4_000n, ledgerId: 'h16' }),
  send(W3, { id: 'p17', created: oct(17), amount: 100_000n, terms: { bps: 100, amount: 1_500n }, settled: { network: 0n, processing: 1_500n }, fees: 1_500n, ledgerId: 'h17' }),
  send(W3, { id: 'p20', created: oct(20), category: 'treasury', amount: 100_000n, terms: { bps: 10, amount: 100n }, fees: 150n, ledgerId: 'h20' }),
  send(W3, { id: 'p27', created: oct(22), currency: 'usd', unit: usd, status: 'failed', amount: 100n }), // USD payment on a BTC wallet
  send(W3, { id: 'p28', created: oct(23), currency: 'eur', unit: (n) => ({ currency: 'eur', amount: n, unit: 'base units' }), status: 'failed', amount: 100n }),
  send(W3, { id: 'p29', created: oct(24), status: 'failed', amount: 100n, extra: (p) => { p['direction'] = 'sideways'; } }),
];

const w3Ledger: WireObject[] = [
  L.deposited('d03', 5_000_000n, '2026-09-01T00:00:00Z'),
  L.held('h13', 'p13', 10_000n, oct(13, 0)),
  L.captured('h13', 'p13', 10_000n, oct(13, 1)),
  L.held('h14', 'p14', 5_000n, oct(14, 0)),
  L.captured('h15', 'p15', 20_500n, oct(15, 1)),
  L.captured('h16', 'p16', 105_000n, oct(16, 1)),
  L.captured('h17', 'p17', 101_500n, oct(17, 1)),
  L.captured('h20', 'p20', 100_150n, oct(20, 1)),
  { type: 'deposited', deposit_id: 'd19', amount: { currency: 'btc', amount: '1e3', unit: 'msats' }, effective_time: oct(25) }, // planted: malformed
  { type: 'clawed_back', clawback_id: 'cb1', amount: btc(100), effective_time: oct(26) }, // planted: unknown event type
];

// ---------------------------------------------------------------------------------------------
// The API's own records: wallets with balances, summaries (derived from the data, then planted deviations)

const ledgerCtx = (wallet: string) => ({ organization_id: ORG, environment_id: ENV, wallet_id: wallet });
const paymentRows = (wire: WireObject[]) => wire.map((p) => normalizePayment(p, { organization_id: ORG, environment_id: ENV }));
const ledgerRows = (wire: WireObject[], wallet: string) => wire.map((e) => normalizeLedgerEvent(e, ledgerCtx(wallet)));

interface WalletData {
  payments: PaymentRow[];
  ledger: LedgerRow[];
  currency: string;
  loc: string | null;
}

const data: Record<string, WalletData> = {
  [W1]: { payments: paymentRows(w1Payments), ledger: ledgerRows(w1Ledger, W1), currency: 'btc', loc: LOC },
  [W2]: { payments: paymentRows(w2Payments), ledger: ledgerRows(w2Ledger, W2), currency: 'usd', loc: LOC },
  [W3]: { payments: paymentRows(w3Payments), ledger: ledgerRows(w3Ledger, W3), currency: 'btc', loc: null },
};

function wireWallet(id: string): WireObject {
  const d = data[id]!;
  let total = d.ledger.reduce((acc, e) => acc + e.balance_effect_base, 0n);
  if (id === W1) total += 7n; // planted: the API balance is 7 msats off the ledger
  const amount = (value: bigint) => ({ currency: d.currency, amount: value < 0n ? -value : value, negative: value < 0n, unit: d.currency === 'btc' ? 'msats' : 'cents' });
  return {
    id,
    active: true,
    created_at: '2025-01-01T00:00:00Z',
    updated_at: '2025-01-01T00:00:00Z',
    name: id,
    organization_id: ORG,
    environment_id: ENV,
    line_of_credit_id: d.loc,
    network: 'mainnet',
    metadata: null,
    balances: [{ id: `bal-${id}`, wallet_id: id, effective_time: NOW, available: amount(total), total: amount(total), network: 'mainnet', currency: d.currency }],
    holds: [],
  };
}

type Buckets = Map<string, number>;
function buckets(rows: readonly PaymentRow[]): Buckets {
  const out: Buckets = new Map();
  for (const p of rows) {
    const key = JSON.stringify([p.direction, p.status, p.currency, p.kind]);
    out.set(key, (out.get(key) ?? 0) + 1);
  }
  return out;
}
const wireBuckets = (b: Buckets) =>
  [...b].map(([key, n]) => {
    const [direction, status, currency, kind] = JSON.parse(key) as string[];
    return { direction, status, currency, kind, total_count: n, oldest_created_at: window.from, newest_created_at: window.from };
  });

function summaries(): SummaryBucketRow[] {
  const w1 = buckets(data[W1]!.payments);
  // planted: the wallet summary counts one completed bolt11 send as still sending
  const completed = JSON.stringify(['send', 'completed', 'btc', 'bolt11']);
  const sending = JSON.stringify(['send', 'sending', 'btc', 'bolt11']);
  w1.set(completed, (w1.get(completed) ?? 0) - 1);
  w1.set(sending, (w1.get(sending) ?? 0) + 1);
  const walletSummary = (id: string, b: Buckets) =>
    normalizeSummary(
      { wallet_id: id, organization_id: ORG, environment_id: ENV, total_count: data[id]!.payments.length, buckets: wireBuckets(b) },
      { scope: 'wallet', environment_id: ENV, wallet_id: id },
    );
  const onLine = [...data[W1]!.payments, ...data[W2]!.payments];
  const all = [...onLine, ...data[W3]!.payments];
  const environment = normalizeSummary(
    {
      organization_id: ORG,
      environment_id: ENV,
      total_count: all.length + 1, // planted: the environment counts one payment nobody listed
      by_organization_id: {},
      by_environment_id: {},
      by_line_of_credit_id: { [LOC]: { organization_id: ORG, environment_id: ENV, total_count: onLine.length, oldest_created_at: window.from, newest_created_at: window.from, buckets: wireBuckets(buckets(onLine)) } },
    },
    { scope: 'environment', environment_id: ENV },
  );
  // planted: W3 has no wallet summary
  return [...environment, ...walletSummary(W1, w1), ...walletSummary(W2, buckets(data[W2]!.payments))];
}

/** An in-memory ReportSource: batches of 3, sorted like the snapshot would sort them. */
const source = {
  async *ledger(wallet: string): AsyncIterable<LedgerRow[]> {
    const rows = [...data[wallet]!.ledger].sort((a, b) => (a.effective_time < b.effective_time ? -1 : a.effective_time > b.effective_time ? 1 : 0));
    for (let i = 0; i < rows.length; i += 3) yield rows.slice(i, i + 3);
  },
  async *payments(wallet: string): AsyncIterable<PaymentRow[]> {
    const rows = [...data[wallet]!.payments].sort((a, b) => (a.created_at < b.created_at ? -1 : 1));
    for (let i = 0; i < rows.length; i += 3) yield rows.slice(i, i + 3);
  },
  knownPaymentIds: async (ids: readonly string[]) => new Set(ids.filter((id) => id === 'p00')),
};

async function reconcile(): Promise<ReconcileResult> {
  const wallets: WalletRow[] = [W1, W2, W3].map((id) => normalizeWallet(wireWallet(id), { organization_id: ORG }));
  const r = new Reconciler({ window, now: NOW, wallets, assets: [], summaries: summaries() });
  for (const wallet of wallets) {
    r.startWallet(wallet);
    for await (const batch of source.ledger(wallet.wallet_id)) r.addLedger(batch);
    for await (const batch of source.payments(wallet.wallet_id)) r.addPayments(batch);
    await r.endWallet((ids) => source.knownPaymentIds(ids));
  }
  return r.finish();
}

const PLANTED = [
  // p19's terms (20 bps) follow p01's and p18's (100 bps): the send rate in force changed — one note
  'fee_rate.change|w1-btc:send:2026-10-19T12:00:00.000000Z',
  'payment.ledger_match|p10',
  'payment.ledger_breakdown|p33',
  'completeness.payment_without_ledger|p11',
  'completeness.ledger_without_payment|x12',
  'payment.failed_moved_money|p13',
  'payment.failed_hold_open|p14',
  'payment.fee_unknown|p15',
  'payment.max_fee_exceeded|p16',
  'payment.processing_fee_rate|p17',
  'payment.fee_terms_vs_settled|p18',
  'payment.reported_fees|p19',
  'payment.treasury_processing_fee|p20',
  'payment.receive_network_fee|p21',
  'payment.legacy_disagreement|p22',
  'payment.quote_conversion|p23',
  'payment.frozen_funds|p24',
  'data.missing_field|p25',
  'data.malformed_value|p26',
  'data.currency_mismatch|p27',
  'data.unknown_currency|p28',
  'data.unknown_direction|p29',
  'data.unknown_enum|p30',
  'data.context_mismatch|p31',
  'data.negative_amount|deposited:d29',
  'data.malformed_amount|deposited:d19',
  'data.unknown_entry_type|clawed_back:cb1',
  'data.unknown_field|payment:data.foo',
  'data.unknown_field|ledger:foo',
  'data.unknown_field|ledger:clawback_id',
  'balance.rollforward|w3-node',
  'balance.api_total|w1-btc',
  'summary.total|environment:env-1',
  'summary.bucket|wallet:w1-btc:send/completed/btc/bolt11',
  'summary.bucket|wallet:w1-btc:send/sending/btc/bolt11',
  'summary.missing|w3-node',
];

describe('Reconciler over a dataset with planted anomalies', () => {
  it('finds every planted anomaly and nothing else', async () => {
    const result = await reconcile();
    const found = result.findings.map((f) => `${f.check_id}|${f.subject_id}`);
    expect([...found].sort()).toEqual([...PLANTED].sort());
    expect(hasErrors(result.findings)).toBe(true);
  });

  it('plants at least one anomaly for every check in the catalogue (bill checks: bill-checks.test.ts; fee rates: fee-rate-history.test.ts)', () => {
    const planted = new Set(PLANTED.map((p) => p.split('|')[0]));
    expect(CHECKS.map((c) => c.id).filter((id) => !id.startsWith('bill.') && id !== 'fee_rate.off_rate' && id !== 'fee_rate.policy_mismatch' && !planted.has(id))).toEqual([]);
  });

  it('states the figures of a mismatch', async () => {
    const { findings } = await reconcile();
    const byKey = new Map(findings.map((f) => [`${f.check_id}|${f.subject_id}`, f]));
    expect(byKey.get('payment.ledger_match|p10')).toMatchObject({ severity: 'error', wallet_id: W1, currency: 'btc', expected: '200100', actual: '200101', difference: '1' });
    expect(byKey.get('balance.api_total|w1-btc')).toMatchObject({ difference: '-7' });
    expect(byKey.get('summary.total|environment:env-1')).toMatchObject({ expected: String(30 + 1), actual: '30', difference: '-1' });
    expect(byKey.get('payment.quote_conversion|p23')).toMatchObject({ expected: '650', actual: '700', severity: 'warning' });
    expect(byKey.get('completeness.ledger_without_payment|x12')?.message).toContain('2 ledger entries');
    expect(byKey.get('balance.rollforward|w3-node')?.message).toContain('2 ledger entries');
    expect(byKey.get('payment.fee_terms_vs_settled|p18')).toMatchObject({ severity: 'info', difference: '-1' });
  });

  it('rolls each wallet forward over the window', async () => {
    const { balances } = await reconcile();
    const w1 = balances.find((b) => b.wallet_id === W1)!;
    expect(w1).toMatchObject({ currency: 'btc', unit: 'msats', opening_base: 10_000_000_000n, api_balance_time: NOW });
    expect(w1.opening_base + w1.credits_base - w1.debits_base).toBe(w1.closing_base);
    // the deposit after the window is in the API balance, not in the closing balance
    expect(w1.ledger_at_api_time_base).toBe(w1.closing_base + 1_000n);
    expect(w1).toMatchObject({ balance_check: 'bridge', movements_since_base: 1_000n, bridge_difference_base: -7n, api_balance_base: null, difference_base: null });
    const w2 = balances.find((b) => b.wallet_id === W2)!;
    expect(w2).toMatchObject({ currency: 'usd', opening_base: 100_000n, credits_base: 1_000n + 2_000n - 500n, debits_base: 657n + 700n, bridge_difference_base: 0n, unknown_entries: 0 });
    expect(balances.find((b) => b.wallet_id === W3)).toMatchObject({ unknown_entries: 2, bridge_difference_base: 0n });
  });

  it('rolls fees up by environment × wallet × currency × kind × category × direction over completed payments', async () => {
    const { fees } = await reconcile();
    const w1Sends = fees.find((f) => f.wallet_id === W1 && f.kind === 'bolt11' && f.category === 'standard' && f.direction === 'send')!;
    // p01, p10, p18, p19, p22, p33
    expect(w1Sends).toMatchObject({ payments: 6, processing_fee_base: 10_000n + 0n + 999n + 200n + 0n + 600n, network_fee_base: 2_000n + 100n + 0n + 100n + 0n + 50n, settled_count: 5, none_count: 1, unknown_fee_count: 0 });
    const w3Sends = fees.find((f) => f.wallet_id === W3 && f.category === 'standard' && f.direction === 'send')!;
    expect(w3Sends).toMatchObject({ payments: 3, unknown_fee_count: 1, principal_base: 200_000n });
    expect(fees.find((f) => f.wallet_id === W3 && f.category === 'treasury')).toMatchObject({ processing_fee_base: 100n, network_fee_base: 50n, terms_count: 1 });
  });

  it('compares every summary bucket and lists the open items', async () => {
    const { summaryChecks, openItems, checks } = await reconcile();
    expect(summaryChecks.filter((s) => !s.ok).map((s) => [s.scope, s.scope_id, s.status])).toEqual([
      ['environment', ENV, null],
      ['wallet', W1, 'completed'],
      ['wallet', W1, 'sending'],
    ]);
    expect(summaryChecks.some((s) => s.scope === 'line_of_credit' && s.direction === null && s.computed_count === 21n && s.ok)).toBe(true);
    expect(openItems.map((o) => [o.payment_id, o.status_class])).toEqual([
      ['p07', 'open'],
      ['p30', 'unknown'],
    ]);
    expect(openItems[0]?.age_seconds).toBe(3 * 86_400 - 12 * 3_600);
    const byId = new Map(checks.map((c) => [c.check_id, c]));
    expect(byId.get('payment.ledger_match')).toMatchObject({ passed: false, findings: 1, severity: 'error' });
    expect(byId.get('payment.ledger_match')?.evaluated).toBeGreaterThan(10);
  });

  it('produces control totals per currency that re-derive from the rows', async () => {
    const { controlTotals } = await reconcile();
    expect(Object.keys(controlTotals)).toEqual(['btc', 'eur', 'usd']);
    const completedBtc = [...data[W1]!.payments, ...data[W3]!.payments].filter((p) => p.currency === 'btc' && p.status_class === 'completed');
    expect(controlTotals['btc']).toMatchObject({
      payments: data[W1]!.payments.length + data[W3]!.payments.length - 2, // p27 is usd, p28 eur
      completed_payments: completedBtc.length,
      principal_base: completedBtc.reduce((a, p) => a + (p.principal_base ?? 0n), 0n),
      unknown_fee_payments: 1,
    });
    expect(controlTotals['btc']?.id_hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('is deterministic', async () => {
    const a = await reconcile();
    const b = await reconcile();
    expect(b).toEqual(a);
  });
});
