import { describe, expect, it } from 'vitest';
import type { PaymentRow } from '../../../src/model/rows.js';
import { FeeRateHistory } from '../../../src/reconcile/fee-rate-history.js';

/** The rate in force per wallet and direction, from the payments' own terms. */

const W = 'w1';
let n = 0;
function pay(day: number, bps: number | null, direction = 'send', extra: Partial<PaymentRow> = {}): PaymentRow {
  n += 1;
  return {
    payment_id: `p${String(n).padStart(2, '0')}`,
    wallet_id: W,
    environment_id: 'env',
    direction,
    category: 'standard',
    status_class: 'completed',
    created_at: `2026-10-${String(day).padStart(2, '0')}T12:00:00.000000Z`,
    processing_fee_bps: bps,
    processing_fee_source: bps === null ? 'none' : 'terms',
    ...extra,
  } as PaymentRow;
}

function history(payments: PaymentRow[]): FeeRateHistory {
  const h = new FeeRateHistory();
  h.startWallet(W, 'env');
  for (const p of payments) h.add(p);
  h.endWallet();
  return h;
}

describe('fee-rate history', () => {
  it('a mid-month rate change is one note and two periods, not a finding per payment', () => {
    n = 0;
    const h = history([pay(1, 100), pay(3, 100), pay(5, null), pay(9, 100), pay(16, 150), pay(17, 150), pay(20, 150), pay(25, 150)]);
    expect(h.findings.map((f) => `${f.check_id}|${f.subject_id}|${f.expected}→${f.actual}`)).toEqual(['fee_rate.change|w1:send:2026-10-16T12:00:00.000000Z|100→150']);
    expect(h.rows.map((r) => [r.rate_bps, r.from, r.to, r.payments, r.first_payment_id, r.last_payment_id])).toEqual([
      [100, '2026-10-01T12:00:00.000000Z', '2026-10-16T12:00:00.000000Z', 3, 'p01', 'p04'],
      [150, '2026-10-16T12:00:00.000000Z', null, 4, 'p05', 'p08'],
    ]);
  });

  it('a lone payment at another rate is off-rate against the rate in force at its time', () => {
    n = 0;
    const h = history([pay(1, 100), pay(2, 100), pay(3, 250), pay(4, 100), pay(5, 50, 'receive'), pay(6, 50, 'receive')]);
    expect(h.findings.map((f) => `${f.check_id}|${f.subject_id}|${f.expected}→${f.actual}`)).toEqual(['fee_rate.off_rate|p03|100→250']);
    expect(h.rows.map((r) => [r.direction, r.rate_bps, r.payments, r.to])).toEqual([
      ['receive', 50, 2, null],
      ['send', 100, 4, null],
    ]);
  });

  it('treasury, failed and fee-free payments are no evidence of a rate', () => {
    n = 0;
    const h = history([pay(1, 100), pay(2, 0, 'send', { category: 'treasury' }), pay(3, 300, 'send', { status_class: 'failed' }), pay(4, null), pay(5, 100)]);
    expect(h.findings).toEqual([]);
    expect(h.rows).toHaveLength(1);
    expect(h.evaluated).toBe(2);
  });
});
