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

type Policy = { send_bps: number; receive_bps: number; updated_at: string | null };

function history(payments: PaymentRow[], policy: Policy | null = null): FeeRateHistory {
  const h = new FeeRateHistory();
  h.startWallet(W, 'env', policy);
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

  it('the wallet policy confirms the latest period, and alone gives the rate of a direction without payments', () => {
    n = 0;
    const h = history([pay(1, 100), pay(16, 150), pay(17, 150)], { send_bps: 150, receive_bps: 0, updated_at: '2026-09-01T00:00:00.000000Z' });
    expect(h.findings.map((f) => f.check_id)).toEqual(['fee_rate.change']);
    expect(h.rows.map((r) => [r.direction, r.rate_bps, r.from, r.to, r.payments, r.first_payment_id, r.evidence.split(':')[0]])).toEqual([
      ['receive', 0, null, null, 0, null, 'policy'],
      ['send', 100, '2026-10-01T12:00:00.000000Z', '2026-10-16T12:00:00.000000Z', 1, 'p01', 'processing_fee.basis_points of 1 send payment(s)'],
      ['send', 150, '2026-10-16T12:00:00.000000Z', null, 2, 'p02', 'payments+policy'],
    ]);
    expect(h.rows[0]?.evidence).toContain('from unknown');
    expect(h.rows[0]?.evidence).toContain('policy last updated 2026-09-01T00:00:00.000000Z');
    expect(h.policyCompared).toBe(1);
  });

  it('a policy rate other than the latest payments is one warning with both rates', () => {
    n = 0;
    const before = history([pay(1, 100), pay(2, 100), pay(3, 50, 'receive')], { send_bps: 120, receive_bps: 50, updated_at: '2026-09-01T00:00:00.000000Z' });
    expect(before.findings.map((f) => [f.check_id, f.severity, f.subject_id, f.expected, f.actual, f.difference])).toEqual([['fee_rate.policy_mismatch', 'warning', 'w1:send', '120', '100', '-20']]);
    expect(before.findings[0]?.message).toMatch(/charged another rate than its policy states/);
    expect(before.rows.map((r) => [r.direction, r.evidence.split(':')[0]])).toEqual([
      ['receive', 'payments+policy'],
      ['send', 'processing_fee.basis_points of 2 send payment(s)'],
    ]);
    n = 0;
    const after = history([pay(1, 100), pay(2, 100)], { send_bps: 120, receive_bps: 50, updated_at: '2026-10-20T00:00:00.000000Z' });
    expect(after.findings.map((f) => f.check_id)).toEqual(['fee_rate.policy_mismatch']);
    expect(after.findings[0]?.message).toMatch(/updated at 2026-10-20T00:00:00.000000Z, after them/);
  });

  it('a wallet with no payments and a policy gets one row per direction from the policy alone', () => {
    const h = history([], { send_bps: 100, receive_bps: 50, updated_at: null });
    expect(h.findings).toEqual([]);
    expect(h.rows.map((r) => [r.direction, r.rate_bps, r.from, r.payments])).toEqual([
      ['receive', 50, null, 0],
      ['send', 100, null, 0],
    ]);
    expect(history([]).rows).toEqual([]);
  });
});
