/**
 * The subledger's invariants for any stream of receives, sends (principal and fees) and treasury
 * transfers between three wallets, any prices and any method: units are conserved per wallet to
 * the base unit, cost is conserved per wallet across transfers and partial reliefs (opening +
 * added − relieved − moved out = held), every relief line has gain = proceeds − cost, no lot is
 * ever negative, and the output is the same whatever order the pull delivered the events in.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { inOrder } from '../../src/lots/event-order.js';
import { LOT_METHODS, type MethodPeriod } from '../../src/lots/method.js';
import type { LotEvent, OpeningLot } from '../../src/lots/model.js';
import { Subledger } from '../../src/lots/subledger.js';

const WALLETS = ['w1', 'w2', 'w3'];
const units = fc.bigInt({ min: 1n, max: 10n ** 12n });
const money = fc.bigInt({ min: 0n, max: 10n ** 9n });
const at = fc.integer({ min: 0, max: 400 }).map((d) => new Date(Date.UTC(2025, 0, 1) + d * 86_400_000).toISOString().replace('Z', '000Z'));
const wallet = fc.constantFrom(...WALLETS);
const leg = (part: 'principal' | 'network_fee' | 'processing_fee' | 'transfer_fee') => fc.record({ part: fc.constant(part), units, proceeds: fc.option(money, { freq: 8 }) });

const event = fc.oneof(
  fc.record({ type: fc.constant('acquire' as const), walletId: wallet, currency: fc.constant('btc'), at, ref: fc.uuid(), origin: fc.constantFrom('receive' as const, 'swap' as const, 'deposit' as const), units, cost: fc.option(money, { freq: 8 }) }),
  fc.record({ type: fc.constant('dispose' as const), walletId: wallet, currency: fc.constant('btc'), at, ref: fc.uuid(), legs: fc.tuple(leg('principal'), leg('network_fee'), leg('processing_fee')).map((l) => [...l]) }),
  fc.record({ type: fc.constant('transfer' as const), walletId: wallet, toWalletId: wallet, currency: fc.constant('btc'), at, ref: fc.uuid(), units, fees: fc.array(leg('transfer_fee'), { maxLength: 1 }) }).filter((t) => t.walletId !== t.toWalletId),
) as fc.Arbitrary<LotEvent>;
const opening = fc.record({ walletId: wallet, currency: fc.constant('btc'), acquiredAt: fc.constant('2024-06-01T00:00:00.000000Z'), units, cost: fc.option(money, { freq: 8 }), ref: fc.constant(null) }) as fc.Arbitrary<OpeningLot>;
const methods = fc.array(fc.record({ method: fc.constantFrom(...LOT_METHODS), from: at }), { maxLength: 3 });

interface Totals { unitsIn: bigint; unitsOut: bigint; costIn: bigint; costOut: bigint; shortfall: bigint }

function run(openings: OpeningLot[], events: LotEvent[], perWallet: MethodPeriod[][]) {
  const ledger = new Subledger({ methods: new Map(WALLETS.map((w, i) => [w, perWallet[i % perWallet.length] ?? []])) }, openings);
  const totals = new Map<string, Totals>(WALLETS.map((w) => [w, { unitsIn: 0n, unitsOut: 0n, costIn: 0n, costOut: 0n, shortfall: 0n }]));
  for (const o of openings) {
    const t = totals.get(o.walletId) as Totals;
    t.unitsIn += o.units;
    t.costIn += o.cost ?? 0n;
  }
  const reliefs = [];
  for (const e of inOrder(events)) {
    const applied = ledger.apply(e);
    (totals.get(e.walletId) as Totals).shortfall += applied.shortfall;
    for (const a of applied.added) {
      const t = totals.get(a.walletId) as Totals;
      t.unitsIn += a.units;
      t.costIn += a.cost ?? 0n;
    }
    for (const m of applied.movedOut) {
      const t = totals.get(m.walletId) as Totals;
      t.unitsOut += m.units;
      t.costOut += m.cost ?? 0n;
    }
    for (const r of applied.reliefs) {
      const t = totals.get(r.walletId) as Totals;
      t.unitsOut += r.units;
      t.costOut += r.cost ?? 0n;
      reliefs.push(r);
    }
  }
  return { reliefs, held: ledger.held(), totals };
}

describe('the subledger for any events, prices and methods', () => {
  it('conserves units and cost per wallet, keeps the gain identity, never goes negative, ignores page order', () => {
    fc.assert(
      fc.property(fc.array(opening, { maxLength: 4 }), fc.array(event, { minLength: 1, maxLength: 40 }), fc.array(methods, { minLength: 1, maxLength: 3 }), fc.infiniteStream(fc.nat()), (openings, events, perWallet, shuffle) => {
        const first = run(openings, events, perWallet);
        for (const w of WALLETS) {
          const t = first.totals.get(w) as Totals;
          const held = first.held.filter((l) => l.walletId === w);
          const heldUnits = held.reduce((a, l) => a + l.units, 0n);
          expect(heldUnits).toBeGreaterThanOrEqual(0n);
          // every unit out of the wallet was in it, or came from an unknown lot made for the shortfall
          expect(heldUnits).toBe(t.unitsIn - t.unitsOut + t.shortfall);
          expect(held.reduce((a, l) => a + (l.cost ?? 0n), 0n)).toBe(t.costIn - t.costOut);
          for (const l of held) {
            expect(l.units).toBeGreaterThan(0n);
            if (l.cost !== null) expect(l.cost).toBeGreaterThanOrEqual(0n);
          }
        }
        for (const r of first.reliefs) {
          expect(r.units).toBeGreaterThan(0n);
          if (r.cost !== null) expect(r.cost).toBeGreaterThanOrEqual(0n);
          expect(r.gain).toBe(r.proceeds === null || r.cost === null ? null : r.proceeds - r.cost);
        }
        // the pull's pages may arrive in any order
        const it = shuffle[Symbol.iterator]();
        const shuffled = events.map((e) => ({ e, k: it.next().value as number })).sort((a, b) => a.k - b.k).map((x) => x.e);
        const again = run(openings, shuffled, perWallet);
        expect(again.reliefs).toEqual(first.reliefs);
        expect(again.held).toEqual(first.held);
      }),
      { numRuns: 300 },
    );
  });
});

