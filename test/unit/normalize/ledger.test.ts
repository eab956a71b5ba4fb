import { describe, expect, it } from 'vitest';
import { normalizeLedgerEvent } from '../../../src/normalize/ledger.js';
import { btc, ENV, ORG, usd, WALLET } from '../../support/wire/examples.js';

const ctx = { organization_id: ORG, environment_id: ENV, wallet_id: WALLET };
const T = '2026-10-05T12:00:00.123456Z';

describe('normalizeLedgerEvent — modern shape', () => {
  it('credited: a credit of the net amount, with its breakdown', () => {
    const row = normalizeLedgerEvent(
      {
        type: 'credited',
        credit_id: 'c1',
        payment_id: 'p1',
        amount: btc(150_000),
        effective_time: T,
        payment_breakdown: {
          principal: btc(150_000),
          network_fee: btc(0),
          processing_fee: { amount: btc(3_750), basis_points: 250, payment_classification: { kind: 'bolt11', route: 'direct' } },
        },
      },
      ctx,
    );
    expect(row).toMatchObject({
      entry_id: 'c1',
      entry_type: 'credited',
      wallet_id: WALLET,
      environment_id: ENV,
      payment_id: 'p1',
      effective_time: T,
      currency: 'btc',
      unit: 'msats',
      amount_base: 150_000n,
      effect: 'credit',
      balance_effect_base: 150_000n,
      principal_base: 150_000n,
      network_fee_base: 0n,
      processing_fee_base: 3_750n,
      processing_fee_bps: 250,
      flags: [],
    });
  });

  it.each([
    ['captured', 'hold_id', 'debit', -1000n],
    ['withdrawn', 'withdraw_id', 'debit', -1000n],
    ['deposited', 'deposit_id', 'credit', 1000n],
    ['held', 'hold_id', 'memo', 0n],
  ] as const)('%s → %s', (type, idKey, effect, balance) => {
    const event: Record<string, unknown> = { type, [idKey]: 'e1', amount: usd(1000), effective_time: T };
    if (type === 'captured' || type === 'held') event['payment_id'] = 'p1';
    const row = normalizeLedgerEvent(event, ctx);
    expect(row).toMatchObject({ entry_id: 'e1', effect, balance_effect_base: balance, amount_base: 1000n, currency: 'usd', unit: 'cents', flags: [] });
    expect(row.payment_id).toBe(type === 'captured' || type === 'held' ? 'p1' : null);
  });

  it('released: no amount, only a currency; touches nothing but available', () => {
    const row = normalizeLedgerEvent({ type: 'released', hold_id: 'h1', payment_id: 'p1', currency: 'btc', effective_time: T }, ctx);
    expect(row).toMatchObject({ entry_id: 'h1', amount_base: null, currency: 'btc', effect: 'memo', balance_effect_base: 0n, flags: [] });
  });

  it('applies negative:true to a signed amount, and flags it', () => {
    const row = normalizeLedgerEvent({ type: 'credited', credit_id: 'c', payment_id: 'p', amount: btc(10, true), effective_time: T }, ctx);
    expect(row.balance_effect_base).toBe(-10n);
    expect(row.flags).toContain('negative_amount:amount');
  });
});

describe('normalizeLedgerEvent — legacy shape', () => {
  it('reads amount_msats + currency (uppercase BTC) and flags the legacy field', () => {
    const row = normalizeLedgerEvent({ type: 'captured', hold_id: 'h', payment_id: 'p', amount_msats: 2100000000000000000n, currency: 'BTC', effective_time: '2020-01-01T00:00:00Z' }, ctx);
    expect(row).toMatchObject({ currency: 'btc', amount_base: 2_100_000_000_000_000_000n, balance_effect_base: -2_100_000_000_000_000_000n, effective_time: '2020-01-01T00:00:00.000000Z' });
    expect(row.flags).toEqual(['uppercase_currency:currency', 'legacy_amount:amount_msats']);
  });

  it('refuses to read msats in a non-btc legacy record', () => {
    const row = normalizeLedgerEvent({ type: 'deposited', deposit_id: 'd', amount_msats: 500, currency: 'usd', effective_time: T }, ctx);
    expect(row.amount_base).toBeNull();
    expect(row.flags).toContain('currency_mismatch:amount_msats');
  });

  it('prefers the Amount object when both shapes are present and disagree', () => {
    const row = normalizeLedgerEvent({ type: 'deposited', deposit_id: 'd', amount: btc(500), amount_msats: 499, effective_time: T }, ctx);
    expect(row.amount_base).toBe(500n);
    expect(row.flags).toContain('amount_disagreement:amount_msats');
  });
});

describe('normalizeLedgerEvent — what cannot be booked', () => {
  it('an unknown event type is kept, its effect unknown (memo), flagged', () => {
    const row = normalizeLedgerEvent({ type: 'clawed_back', id: 'x1', payment_id: 'p', amount: btc(5), effective_time: T }, ctx);
    expect(row).toMatchObject({ entry_type: 'clawed_back', entry_id: 'x1', effect: 'memo', balance_effect_base: 0n, amount_base: 5n });
    expect(row.flags).toContain('unknown_entry_type:clawed_back');
  });

  it('a malformed amount is null with the path, and moves no balance', () => {
    const row = normalizeLedgerEvent({ type: 'credited', credit_id: 'c', payment_id: 'p', amount: { currency: 'btc', amount: '1e3' }, effective_time: T }, ctx);
    expect(row.amount_base).toBeNull();
    expect(row.balance_effect_base).toBe(0n);
    expect(row.flags).toContain('malformed_amount:amount.amount');
  });

  it('missing fields and unknown fields are flagged', () => {
    const row = normalizeLedgerEvent({ type: 'captured', amount: btc(5), foo: 1 }, ctx);
    expect(row.flags).toEqual(expect.arrayContaining(['missing_field:hold_id', 'missing_field:payment_id', 'missing_field:effective_time', 'unknown_field:foo']));
    expect(normalizeLedgerEvent(null, ctx).flags).toContain('malformed_value:ledger_event');
  });

  it('a breakdown in another currency is not used', () => {
    const row = normalizeLedgerEvent(
      {
        type: 'captured',
        hold_id: 'h',
        payment_id: 'p',
        amount: usd(657),
        effective_time: T,
        payment_breakdown: { principal: btc(1), network_fee: usd(0), processing_fee: { amount: usd(7), basis_points: 100, payment_classification: { kind: 'bolt11', route: 'direct' } } },
      },
      ctx,
    );
    expect(row.principal_base).toBeNull();
    expect(row.processing_fee_base).toBe(7n);
    expect(row.flags).toContain('currency_mismatch:payment_breakdown.principal');
  });
});
