import { beforeAll, describe, expect, it } from 'vitest';
import { parseJsonLossless, stringifyJson } from '../../../../src/sim/core/json.js';
import { ANOMALY_KINDS, type PlantedAnomaly } from '../../../../src/sim/dataset/anomaly-kinds.js';
import { Dataset } from '../../../../src/sim/dataset/dataset.js';
import { processingFeeOf } from '../../../../src/sim/dataset/fees.js';

/** Every planted anomaly is reported and visible in the wire data, the way a reconciler would find it. */

type J = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- wire objects in a test
const wire = (v: unknown): J => parseJsonLossless(stringifyJson(v)) as J;
const big = (v: unknown): bigint => BigInt(v as number | bigint);

let ds: Dataset;
const byKind = (kind: string): PlantedAnomaly[] => ds.anomalies.filter((a) => a.kind === kind);
const one = (kind: string): PlantedAnomaly => {
  const found = byKind(kind)[0];
  if (!found) throw new Error(`no ${kind} planted`);
  return found;
};
const payment = (a: PlantedAnomaly): J => wire(ds.getPayment(a.paymentId as string));
const ledgerOf = (walletId: string): J[] => {
  const w = ds.walletIndexOf(walletId) as number;
  return ds.listLedger({ walletIndex: w, offset: 0, limit: 1e9, sortKey: 'effective_time', sortOrder: 'ASC' }).refs.map((r) => wire(ds.renderLedgerEntry(w, r)));
};

beforeAll(() => {
  ds = new Dataset({ seed: 21, scale: 4000, anomalies: 'all' });
});

describe('planted anomalies', () => {
  it('plants every kind and reports it', () => {
    for (const kind of ANOMALY_KINDS) expect(byKind(kind).length, kind).toBeGreaterThan(0);
    expect(byKind('malformed_amount')).toHaveLength(5);
    expect(new Dataset({ seed: 21, scale: 4000 }).anomalies).toEqual([]);
  });

  it('missing_ledger_entry: a completed payment with no ledger entry', () => {
    const a = one('missing_ledger_entry');
    expect(payment(a)['status']).toBe('completed');
    expect(ledgerOf(a.walletId).filter((e) => e['payment_id'] === a.paymentId)).toEqual([]);
  });

  it('capture_amount_mismatch: captured ≠ principal + fees', () => {
    const a = one('capture_amount_mismatch');
    const p = payment(a);
    const captured = ledgerOf(a.walletId).find((e) => e['payment_id'] === a.paymentId && e['type'] === 'captured') as J;
    expect(big(captured['amount']['amount'])).not.toBe(big(p['data']['amount']['amount']) + big(p['data']['fees']['amount']));
  });

  it('orphan_ledger_entry: a ledger entry whose payment does not exist', () => {
    const a = one('orphan_ledger_entry');
    expect(ds.getPayment(a.paymentId as string)).toBeNull();
    expect(ledgerOf(a.walletId).some((e) => e['payment_id'] === a.paymentId && e['hold_id'] === a.subjectId)).toBe(true);
  });

  it('summary_count_off_by_one: one bucket counts one more than the list', () => {
    const a = one('summary_count_off_by_one');
    const [walletId, direction, status, currency, kind] = a.subjectId.split('|') as [string, string, string, string, string];
    const w = ds.walletIndexOf(walletId) as number;
    const filter = ds.toPaymentFilter({}, ds.environmentIndexOf(a.environmentId) as number);
    const bucket = (wire(ds.walletSummary({ ...filter, walletIndex: w }))['buckets'] as J[]).find((b) => b['direction'] === direction && b['status'] === status && b['currency'] === currency && b['kind'] === kind) as J;
    const listed = ds.countPayments({ walletId, direction, statuses: [status], kind });
    expect(big(bucket['total_count'])).toBe(BigInt(listed + 1));
  });

  it('network_fee_above_max: a completed send whose network fee exceeds max_fee', () => {
    const p = payment(one('network_fee_above_max'));
    const network = p['payment_breakdown'] ? big(p['payment_breakdown']['network_fee']['amount']) : big(p['data']['fees']['amount']);
    expect(network > big(p['data']['max_fee']['amount'])).toBe(true);
  });

  it('processing_fee_mismatch: settled fee ≠ round(principal × bps / 10000)', () => {
    const p = payment(one('processing_fee_mismatch'));
    const expected = processingFeeOf(big(p['payment_breakdown']['principal']['amount']), Number(p['processing_fee']['basis_points']), false);
    expect(big(p['payment_breakdown']['processing_fee']['amount'])).not.toBe(expected);
  });

  it('balance_mismatch: the reported balance differs from the ledger sum', () => {
    const a = one('balance_mismatch');
    const b = ds.walletBalance(a.walletId);
    expect(b.reportedTotal).not.toBe(b.ledgerTotal);
    const reported = wire(ds.renderWallet(ds.walletIndexOf(a.walletId) as number))['balances'][0]['total'];
    expect(big(reported['amount'])).toBe(b.reportedTotal);
  });

  it('currency_mismatch: the payment currency is not the wallet currency', () => {
    const a = one('currency_mismatch');
    const wallet = ds.wallets[ds.walletIndexOf(a.walletId) as number];
    expect(payment(a)['currency']).not.toBe(wallet?.currency);
  });

  it('malformed_amount: "1e3", "1,000", "", 1.5 and a negative amount', () => {
    const values = byKind('malformed_amount').map((a) => payment(a)['data']['amount']['amount']);
    expect(values).toEqual(['1e3', '1,000', '', 1.5, -500]);
  });
});
