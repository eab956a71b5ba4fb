/**
 * The journal's invariants for any movements, any rate and any rounding: every entry balances in
 * source units and in books minor units, the wallet legs sum to the ledger movement exactly, each
 * allocated leg stays within one minor unit of its exact value, and the per-day summaries tie to
 * their detail to the minor unit.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { allocateLargestRemainder } from '../../src/journal/allocate.js';
import { imbalance } from '../../src/journal/balance.js';
import { buildMovementEntry } from '../../src/journal/build-movement.js';
import type { JournalEntry } from '../../src/journal/model.js';
import { DayWalletGrouper } from '../../src/journal/per-day-wallet.js';
import { divRound, ROUNDING_MODES, type Rounding } from '../../src/money/rounding.js';
import { buildContext, journalConfig } from '../support/journal/build-context.js';
import { makeLedgerRow, makePaymentRow, uuid } from '../support/rows/builders.js';

const amount = fc.bigInt({ min: 0n, max: 10n ** 16n });
const movement = fc.record({
  inflow: fc.boolean(),
  principal: amount,
  network: amount,
  processing: amount,
  /** split known on the ledger entry, on the payment only, or not at all */
  split: fc.constantFrom('entry', 'payment', 'none'),
  day: fc.integer({ min: 1, max: 3 }),
});
const rate = fc.record({ coefficient: fc.bigInt({ min: 1n, max: 10n ** 12n }), scale: fc.integer({ min: 0, max: 6 }) });
const mode = fc.constantFrom<Rounding>(...ROUNDING_MODES);
const strategy = fc.constantFrom<'allocate' | 'rounding-line'>('allocate', 'rounding-line');

describe('journal entries for any payments, rates and rounding', () => {
  it('balance, and their wallet legs sum to the ledger movement', () => {
    fc.assert(
      fc.property(fc.array(movement, { minLength: 1, maxLength: 20 }), rate, mode, strategy, (moves, r, rounding, roundingStrategy) => {
        const ctx = buildContext(journalConfig({ rounding, roundingStrategy }));
        const grouper = new DayWalletGrouper('PX-');
        const summaries: JournalEntry[] = [];
        const detail = new Map<string, bigint>();
        let ledgerNet = 0n;
        let walletNet = 0n;
        moves.forEach((m, i) => {
          const total = m.inflow ? m.principal : m.principal + m.network + m.processing;
          const effect = m.inflow ? total : -total;
          if (effect === 0n) return;
          ledgerNet += effect;
          const row = makeLedgerRow({
            entry_id: uuid(i, 'd'),
            entry_type: m.inflow ? 'credited' : 'captured',
            effect: m.inflow ? 'credit' : 'debit',
            amount_base: total,
            balance_effect_base: effect,
            effective_time: `2026-10-0${m.day}T12:00:00.000000Z`,
            ...(m.split === 'entry' ? { principal_base: m.principal, network_fee_base: m.network, processing_fee_base: m.processing } : {}),
          });
          const payment = makePaymentRow({
            direction: m.inflow ? 'receive' : 'send',
            quote_rate: `${r.coefficient}e${r.scale}`,
            quote_from: 'btc',
            quote_to: 'usd',
            ...(m.split === 'payment' ? { principal_base: m.principal, network_fee_base: m.network, processing_fee_base: m.processing } : {}),
          });
          const { entry } = buildMovementEntry(ctx, 'ops_btc', row, payment);
          expect(entry).not.toBeNull();
          expect(imbalance(entry!)).toBeNull();
          const wallet = entry!.lines.filter((l) => l.component === 'wallet');
          expect(wallet).toHaveLength(1);
          const w = wallet[0]!;
          walletNet += (w.side === 'debit' ? 1n : -1n) * w.source!.amount;
          // the wallet leg is the exact value rounded once, with the named mode
          const den = 10n ** BigInt(r.scale) * 10n ** 11n;
          expect(w.amount).toBe(divRound(total * r.coefficient, den, rounding));
          for (const l of entry!.lines) detail.set(`${l.account}|${l.side}|${entry!.date}`, (detail.get(`${l.account}|${l.side}|${entry!.date}`) ?? 0n) + l.amount!);
          const done = grouper.add(entry!);
          if (done) summaries.push(done);
        });
        const last = grouper.flush();
        if (last) summaries.push(last);
        expect(walletNet).toBe(ledgerNet);
        // the daily summaries balance and tie to the detail per account, side and day
        const summed = new Map<string, bigint>();
        for (const s of summaries) {
          expect(imbalance(s)).toBeNull();
          for (const l of s.lines) summed.set(`${l.account}|${l.side}|${s.date}`, (summed.get(`${l.account}|${l.side}|${s.date}`) ?? 0n) + l.amount!);
        }
        expect(summed).toEqual(detail);
      }),
      { numRuns: 300 },
    );
  });

  it('allocate each leg within one minor unit of its exact value, summing to the rounded total', () => {
    fc.assert(
      fc.property(fc.array(amount, { minLength: 1, maxLength: 4 }), fc.bigInt({ min: 1n, max: 10n ** 12n }), fc.bigInt({ min: 1n, max: 10n ** 18n }), mode, (parts, num, den, rounding) => {
        const { wallet, parts: allocated } = allocateLargestRemainder(parts, num, den, rounding);
        expect(allocated.reduce((a, b) => a + b, 0n)).toBe(wallet);
        parts.forEach((p, i) => {
          const diff = allocated[i]! * den - p * num;
          expect(diff > -den && diff < den).toBe(true);
        });
      }),
      { numRuns: 500 },
    );
  });
});
