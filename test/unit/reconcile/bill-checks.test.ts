/**
 * The bill checks over a hand-built line of credit: payments and ledger entries go through the
 * normalizers, bills through normalizeBill (wire objects, amounts beyond 2^53 included), then the
 * Reconciler. One bill is clean; the other plants one anomaly per bill check. Every one must be
 * found on its subject, and nothing else. A week past the window's end is tied here (the window
 * holds the larger part of it) with the payment created after the window that the report reads
 * beside it; a week mostly after the window is only noted.
 */
import { describe, expect, it } from 'vitest';
import { normalizeBill, normalizeBillSummary } from '../../../src/normalize/bill.js';
import { normalizeLedgerEvent } from '../../../src/normalize/ledger.js';
import { normalizePayment } from '../../../src/normalize/payment.js';
import type { BillRecord, WalletRow } from '../../../src/model/rows.js';
import { CHECKS } from '../../../src/reconcile/catalogue.js';
import { Reconciler } from '../../../src/reconcile/reconciler.js';
import type { Window } from '../../../src/model/window.js';
import { billPaymentRanges } from '../../../src/model/bill-period.js';
import { btc } from '../../support/wire/examples.js';
import { ledger as L, payment, type WireObject } from '../../support/wire/builders.js';

const ORG = 'org-1';
const ENV = 'env-1';
const LOC = 'loc-1';
const [W1, W2, W3] = ['w1', 'w2', 'w3'];
const window: Window = { from: '2026-10-01T00:00:00.000000Z', to: '2026-11-01T00:00:00.000000Z', tz: 'UTC' };
const HUGE = 9_007_199_254_740_993n; // 2^53 + 1: must survive every step

const ctx = (wallet: string) => ({ wallet, environment: ENV, organization: ORG });
const payments: Record<string, WireObject[]> = {
  [W1]: [
    payment({ ...ctx(W1), id: 'p1', direction: 'send', created: '2026-10-02T10:00:00Z', amount: HUGE, settled: { network: 2_000n, processing: 10_000n }, fees: 12_000n, ledgerId: 'h1' }),
    payment({ ...ctx(W1), id: 'p2', direction: 'receive', created: '2026-10-03T10:00:00Z', amount: 500_000n, settled: { network: 0n, processing: 12_500n }, ledgerId: 'c2' }),
    payment({ ...ctx(W1), id: 'p3', direction: 'receive', created: '2026-10-04T10:00:00Z', category: 'treasury', amount: 7_000n, ledgerId: 'c3' }),
    payment({ ...ctx(W1), id: 'p4', direction: 'send', status: 'failed', created: '2026-10-05T10:00:00Z', amount: 1_000n }),
  ],
  [W2]: [payment({ ...ctx(W2), id: 'p5', direction: 'receive', created: '2026-10-06T10:00:00Z', amount: 300_000n, ledgerId: 'c5' })],
  // a completed send whose fees nobody states: its line cannot be recomputed
  [W3]: [payment({ ...ctx(W3), id: 'p6', direction: 'send', created: '2026-10-07T10:00:00Z', amount: 40_000n, ledgerId: 'h6' })],
};
/** created after the window, inside the period of a bill the window ties: read for that bill only */
const beyond: Record<string, WireObject[]> = {
  [W2]: [payment({ ...ctx(W2), id: 'p7', direction: 'receive', created: '2026-11-02T10:00:00Z', amount: 2_000n, ledgerId: 'c7' })],
};
const ledgers: Record<string, WireObject[]> = {
  [W1]: [L.deposited('d1', 10_000_000_000n, '2026-09-15T00:00:00Z'), L.captured('h1', 'p1', HUGE + 12_000n, '2026-10-02T10:00:01Z'), L.credited('c2', 'p2', 500_000n, '2026-10-03T10:00:01Z'), L.credited('c3', 'p3', 7_000n, '2026-10-04T10:00:01Z')],
  [W2]: [L.credited('c5', 'p5', 300_000n, '2026-10-06T10:00:01Z'), L.credited('c7', 'p7', 2_000n, '2026-11-02T10:00:01Z')],
  [W3]: [L.captured('h6', 'p6', 40_000n, '2026-10-07T10:00:01Z')],
};

interface Line {
  wallet: string;
  starting: bigint;
  sent: bigint;
  received: bigint;
  sentCount: number;
  receivedCount: number;
  feeSend: bigint;
  feeReceive: bigint;
  activity?: { ss: [number, bigint]; sr: [number, bigint]; ts: [number, bigint]; tr: [number, bigint] };
}

const bucket = ([count, volume]: [number, bigint]) => ({ count, volume: btc(volume) });
function wireBill(id: string, start: string, end: string, lines: Line[], override: { amtDue?: bigint; walletIds?: string[] } = {}): WireObject {
  let net = 0n;
  const items = lines.map((l) => {
    const volumeFee = (l.sent + l.received) / 1_000n;
    net += l.received - l.sent - volumeFee;
    return {
      wallet_id: l.wallet,
      starting_balance: btc(l.starting < 0n ? -l.starting : l.starting, l.starting < 0n),
      currency: 'btc',
      amount_total: btc(l.sent > l.received ? l.sent - l.received : l.received - l.sent),
      settlement_type: 'Collection',
      total_transactions_sent: l.sentCount,
      amount_sent: btc(l.sent),
      total_transactions_received: l.receivedCount,
      amount_received: btc(l.received),
      processing_fees: { total: btc(l.feeSend + l.feeReceive), send: btc(l.feeSend), receive: btc(l.feeReceive) },
      ...(l.activity ? { payment_activity: { standard: { send: bucket(l.activity.ss), receive: bucket(l.activity.sr) }, treasury: { send: bucket(l.activity.ts), receive: bucket(l.activity.tr) } } } : {}),
      volume_fee: btc(volumeFee),
      interest_fee: btc(0n),
    };
  });
  const due = net - 25_000_000n;
  return {
    id, organization_id: ORG, line_of_credit_id: LOC, start_time: start, end_time: end, period_length: 'monthly', status: 'paid',
    settlement_type: due < 0n ? 'Collection' : 'Payout', wallet_ids: override.walletIds ?? lines.map((l) => l.wallet),
    invoice: { line_of_credit_id: LOC, line_items: items, created_at: end, due_date: end, service_fee: btc(25_000_000n) },
    amt_due: btc(override.amtDue ?? (due < 0n ? -due : due)), created_at: end, updated_at: end,
  };
}

const w1Truth: Line = { wallet: W1, starting: 10_000_000_000n, sent: HUGE + 12_000n, received: 507_000n, sentCount: 1, receivedCount: 2, feeSend: 10_000n, feeReceive: 12_500n, activity: { ss: [1, HUGE], sr: [1, 500_000n], ts: [0, 0n], tr: [1, 7_000n] } };
const w2Truth: Line = { wallet: W2, starting: 0n, sent: 0n, received: 300_000n, sentCount: 0, receivedCount: 1, feeSend: 0n, feeReceive: 0n };

const BILLS: BillRecord[] = [
  // clean: both wallets exactly as the payments say
  normalizeBill(wireBill('b-clean', '2026-10-01T00:00:00Z', '2026-11-01T00:00:00Z', [w1Truth, w2Truth, { ...w2Truth, wallet: W3, received: 0n, receivedCount: 0, sentCount: 1, sent: 40_000n }])),
  // planted: every figure of W1 off, W2 left out, wallet_ids and amt_due that do not add up
  normalizeBill(
    wireBill(
      'b-bad',
      '2026-10-01T00:00:00Z',
      '2026-11-01T00:00:00Z',
      [{ ...w1Truth, starting: 9_999_999_999n, sent: HUGE + 12_001n, sentCount: 2, feeSend: 10_137n, activity: { ...w1Truth.activity!, ss: [1, 999n] } }],
      { amtDue: 1n, walletIds: [W1, W2] },
    ),
  ),
  // a week past the window's end whose larger part the window holds: tied, with p7 created after the window
  normalizeBill(wireBill('b-late', '2026-10-27T00:00:00Z', '2026-11-03T00:00:00Z', [{ ...w2Truth, starting: 300_000n, received: 2_000n }])),
  // a week mostly after the window: another report ties it — noted, not checked
  normalizeBill(wireBill('b-edge', '2026-10-29T00:00:00Z', '2026-11-05T00:00:00Z', [w1Truth])),
];

const wallets: WalletRow[] = [W1, W2, W3].map((id) => ({
  wallet_id: id, organization_id: ORG, environment_id: ENV, name: id, active: true, network: 'mainnet', line_of_credit_id: LOC, limit_base: null,
  created_at: '2025-01-01T00:00:00.000000Z', updated_at: '2025-01-01T00:00:00.000000Z', deleted_at: null, metadata: null, fee_policy: null, balances: [], flags: [], raw: null,
}));

async function reconcile(bills: BillRecord[], reportWindow: Window = window) {
  const summary = normalizeBillSummary({ organization_id: ORG, bill_total_count: 4, inflight_total_count: 0, amount_units: {}, by_currency: {}, by_status: {} }, LOC, 3);
  const r = new Reconciler({ window: reportWindow, now: reportWindow.to, wallets, assets: [], summaries: [], bills, billSummaries: [summary] });
  const rows = (wires: WireObject[] | undefined) => (wires ?? []).map((p) => normalizePayment(p, { organization_id: ORG, environment_id: ENV }));
  const inside = (range: { from: string; to: string }, at: string) => range.from <= at && at < range.to;
  for (const wallet of wallets) {
    r.startWallet(wallet);
    r.addLedger(ledgers[wallet.wallet_id]!.map((e) => normalizeLedgerEvent(e, { organization_id: ORG, environment_id: ENV, wallet_id: wallet.wallet_id })));
    const all = [...rows(payments[wallet.wallet_id]), ...rows(beyond[wallet.wallet_id])];
    r.addPayments(all.filter((p) => inside(reportWindow, p.created_at)));
    // what the report stage reads beside the window: the periods of the bills tied here, outside it
    for (const range of billPaymentRanges(reportWindow, bills, wallet)) r.addBillPayments(all.filter((p) => inside(range, p.created_at)));
    await r.endWallet(async () => new Set());
  }
  return r.finish();
}

const PLANTED = [
  'bill.starting_balance|b-bad:w1',
  'bill.line_amounts|b-bad:w1',
  'bill.line_counts|b-bad:w1',
  'bill.line_processing_fees|b-bad:w1',
  'bill.line_activity|b-bad:w1',
  'bill.line_item_missing|b-bad:w2',
  'bill.internal_totals|b-bad',
  'bill.line_item_missing|b-bad:w3',
  'bill.not_recomputable|b-clean:w3',
  'bill.period_outside_window|b-edge',
  'bill.summary_count|line_of_credit:loc-1',
];

describe('bill checks', () => {
  it('find every planted bill anomaly on its subject, and nothing else', async () => {
    const result = await reconcile(BILLS);
    const bill = result.findings.filter((f) => f.check_id.startsWith('bill.')).map((f) => `${f.check_id}|${f.subject_id}`);
    expect([...new Set(bill)].sort()).toEqual([...PLANTED].sort());
    expect(result.checks.filter((c) => c.check_id.startsWith('bill.')).every((c) => c.skipped_reason === null)).toBe(true);
  });

  it('plants every bill check of the catalogue (the rest are planted in planted-anomalies.test.ts)', () => {
    const planted = new Set(PLANTED.map((p) => p.split('|')[0]));
    expect(CHECKS.map((c) => c.id).filter((id) => id.startsWith('bill.') && !planted.has(id))).toEqual([]);
  });

  it('states both figures, the difference and the payments behind it, losslessly beyond 2^53', async () => {
    const { findings, bills } = await reconcile(BILLS);
    const sent = findings.find((f) => f.check_id === 'bill.line_amounts' && f.subject_id === 'b-bad:w1');
    expect(sent).toMatchObject({ severity: 'error', wallet_id: W1, currency: 'btc', expected: (HUGE + 12_000n).toString(), actual: (HUGE + 12_001n).toString(), difference: '1' });
    expect(sent?.message).toContain('behind it: 1 completed send(s) created in the period, e.g. p1');
    expect(findings.find((f) => f.check_id === 'bill.line_processing_fees')).toMatchObject({ expected: '10000', actual: '10137', difference: '137' });
    const row = bills.find((b) => b.bill_id === 'b-clean' && b.wallet_id === W1 && b.figure === 'amount_sent');
    expect(row).toMatchObject({ billed: HUGE + 12_000n, computed: HUGE + 12_000n, difference: 0n, status: 'ok', payments: 1 });
    expect(bills.find((b) => b.bill_id === 'b-clean' && b.wallet_id === W1 && b.figure === 'starting_balance')).toMatchObject({ status: 'ok', payments: 3 });
    expect(bills.filter((b) => b.bill_id === 'b-edge').every((b) => b.status === 'not_checked' && b.computed === null)).toBe(true);
    // the week past the window's end: tied with the payment created after it, and nothing else
    expect(bills.filter((b) => b.bill_id === 'b-late').every((b) => b.status === 'ok')).toBe(true);
    expect(bills.find((b) => b.bill_id === 'b-late' && b.figure === 'amount_received')).toMatchObject({ wallet_id: W2, billed: 2_000n, computed: 2_000n, payments: 1 });
    expect(findings.find((f) => f.subject_id === 'b-edge')?.message).toMatch(/tied by the report whose window holds the larger part of its period \(its midpoint 2026-11-01T12:00:00\.000000Z\)/);
    expect(bills.find((b) => b.bill_id === 'b-bad' && b.wallet_id === W2)).toMatchObject({ figure: 'line_item', status: 'no_line_item', computed: 1n });
  });

  it("a window that ties no bill runs no check that ties one, and says why: a day inside the weeks it overlaps", async () => {
    const day: Window = { from: '2026-10-30T00:00:00.000000Z', to: '2026-10-31T00:00:00.000000Z', tz: 'UTC' };
    const result = await reconcile(BILLS, day);
    expect(result.bills.every((b) => b.status === 'not_checked')).toBe(true);
    const tie = result.checks.filter((c) => c.check_id.startsWith('bill.') && c.check_id !== 'bill.summary_count' && c.check_id !== 'bill.period_outside_window');
    expect(tie.length).toBe(8);
    for (const check of tie) expect(check, check.check_id).toMatchObject({ evaluated: 0, skipped_reason: expect.stringMatching(/^none of the 4 bill\(s\) overlapping this window is tied by it/) });
    expect(result.checks.find((c) => c.check_id === 'bill.summary_count')).toMatchObject({ evaluated: 1, skipped_reason: null });
  });

  it("refuses a window's own payment given as a bill period's: it would count twice on the bill", () => {
    const r = new Reconciler({ window, now: window.to, wallets, assets: [], summaries: [], bills: BILLS });
    r.startWallet(wallets[1]!);
    const [inWindow] = payments[W2]!.map((p) => normalizePayment(p, { organization_id: ORG, environment_id: ENV }));
    expect(() => r.addBillPayments([inWindow!])).toThrow(/p5 created in the window given as a bill period's payment/);
  });

  it('skips the bill checks, saying why, when no bill was pulled', async () => {
    const result = await reconcile([]);
    const bill = result.checks.filter((c) => c.check_id.startsWith('bill.') && c.check_id !== 'bill.summary_count');
    expect(bill.every((c) => c.evaluated === 0)).toBe(true);
  });
});
