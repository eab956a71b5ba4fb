/**
 * For any history of receives, sends, treasury pairs, deposits and withdrawals (to and from an own
 * custody wallet too) over four months and any methods, the replay of a first close
 * (src/lots/replay-months.ts: month blocks, lots reseated at each month's end) gives the relief
 * lines and the lots that closing every month in turn gives — one Subledger per month, seeded
 * with the previous month's held lots, its own month's events only (what lots-run.ts does from a
 * recorded close). The unit suite holds the named cases; this is everything between them.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { JournalEntry } from '../../src/journal/model.js';
import { inOrder } from '../../src/lots/event-order.js';
import { lotEvents, type Movement } from '../../src/lots/events.js';
import { LOT_METHODS, type MethodPeriod } from '../../src/lots/method.js';
import type { OpeningLot, ReliefLine } from '../../src/lots/model.js';
import { monthBlocks, replayMonths } from '../../src/lots/replay-months.js';
import { Subledger, type SubledgerOptions } from '../../src/lots/subledger.js';
import type { Window } from '../../src/model/window.js';

const WALLETS = ['w1', 'w2', 'w3'];
const CUSTODY = 'custody:vault';
// the window is December 2025 (UTC); September to November are replayed
const DECEMBER: Window = { from: '2025-12-01T00:00:00.000000Z', to: '2026-01-01T00:00:00.000000Z', tz: 'UTC' };
const MONTH_ENDS = ['2025-10-01T00:00:00.000000Z', '2025-11-01T00:00:00.000000Z', '2025-12-01T00:00:00.000000Z', '2026-01-01T00:00:00.000000Z'];

const line = (component: JournalEntry['lines'][number]['component'], side: 'debit' | 'credit', units: bigint, amount: bigint): JournalEntry['lines'][number] => ({ account: 'x', side, component, source: { amount: units, currency: 'btc', unit: 'msat' }, amount, memo: '' });
// any instant from 1 September to 31 December, often on the last hours of a month
const instant = fc.oneof(fc.integer({ min: 0, max: 121 * 24 - 1 }).map((h) => Date.UTC(2025, 8, 1) + h * 3_600_000), fc.constantFrom(...MONTH_ENDS.slice(0, 3)).chain((end) => fc.integer({ min: -3, max: 3 }).map((h) => Date.parse(end) + h * 3_600_000 + 1_000)));
const at = instant.map((t) => new Date(t).toISOString().replace('Z', '000Z'));
// equal amounts often: ties (in an average's shared cents, in lot order) are where order matters
const units = fc.oneof(fc.constantFrom(1_000n, 2_000n, 3_000n), fc.bigInt({ min: 1n, max: 10n ** 9n }));
const value = fc.oneof(fc.constantFrom(1n, 5n, 7n), fc.bigInt({ min: 0n, max: 10n ** 6n }));
const wallet = fc.constantFrom(...WALLETS);
let refs = 0;

const movement = (walletId: string, when: string, inflow: boolean, lines: JournalEntry['lines'], how: Partial<Movement> = {}): Movement => {
  const ref = `${inflow ? (how.noPayment ? 'deposited' : 'credited') : how.noPayment ? 'withdrawn' : 'captured'}:${++refs}`;
  return { entry: { entryNo: `PX-${ref}`, kind: 'movement', date: when.slice(0, 10), postedAt: when, walletId, paymentId: how.noPayment ? null : `p${refs}`, ledgerRef: ref, narration: '', valuation: null, lines }, currency: 'btc', inflow, treasury: false, swap: false, noPayment: false, pairKey: null, ...how };
};

const history = fc.array(
  fc.oneof(
    fc.tuple(wallet, at, units, value).map(([w, t, u, v]) => [movement(w, t, true, [line('wallet', 'debit', u, v), line('principal', 'credit', u, v)])]),
    fc.tuple(wallet, at, units, units, value, value).map(([w, t, u, f, v, fv]) => [movement(w, t, false, [line('wallet', 'credit', u + f, v + fv), line('principal', 'debit', u, v), line('network_fee', 'debit', f, fv)])]),
    // a treasury pair, the receive up to a day after the send: across a month's end now and then
    fc.tuple(wallet, wallet, at, fc.integer({ min: 0, max: 86_000 }), units, value).filter(([a, b]) => a !== b).map(([a, b, t, lag, u, v]) => {
      const key = `h${refs}`;
      const later = new Date(Date.parse(t.slice(0, 23) + 'Z') + lag * 1000).toISOString().replace('Z', '000Z');
      return [movement(a, t, false, [line('wallet', 'credit', u, v), line('principal', 'debit', u, v)], { treasury: true, pairKey: key }), movement(b, later, true, [line('wallet', 'debit', u, v), line('principal', 'credit', u, v)], { treasury: true, pairKey: key })];
    }),
    fc.tuple(wallet, at, units, value, fc.boolean()).map(([w, t, u, v, own]) => [movement(w, t, false, [line('wallet', 'credit', u, v), line('principal', 'debit', u, v)], { noPayment: true, ...(own ? { custody: CUSTODY } : {}) })]),
    fc.tuple(wallet, at, units, value, fc.boolean()).map(([w, t, u, v, own]) => [movement(w, t, true, [line('wallet', 'debit', u, v), line('principal', 'credit', u, v)], { noPayment: true, ...(own ? { custody: CUSTODY } : {}) })]),
  ),
  { minLength: 1, maxLength: 40 },
).map((groups) => groups.flat());
const openings = fc.array(fc.record({ walletId: wallet, currency: fc.constant('btc'), acquiredAt: fc.constantFrom('2024-06-01T00:00:00.000000Z', '2024-06-02T00:00:00.000000Z'), units, cost: value, ref: fc.constant(null) }), { maxLength: 4 }) as fc.Arbitrary<OpeningLot[]>;
// a method from the start (average often: the order of its lots decides where a shared cent goes), and maybe a change later
const holderMethods = fc.tuple(fc.constantFrom(...LOT_METHODS, 'average' as const, 'average' as const), fc.array(fc.record({ method: fc.constantFrom(...LOT_METHODS), from: at }), { maxLength: 1 })).map(([m, later]): MethodPeriod[] => [{ method: m, from: '2025-01-01' }, ...later]);
const methods = fc.array(holderMethods, { minLength: 4, maxLength: 4 });

function options(perHolder: MethodPeriod[][]): SubledgerOptions {
  return { methods: new Map([...WALLETS, CUSTODY].map((w, i) => [w, perHolder[i] ?? []])) };
}

/** Every month closed in turn: its own events, seeded from the previous close's held lots. */
function chain(movements: readonly Movement[], o: SubledgerOptions, first: readonly OpeningLot[]): { reliefs: ReliefLine[]; held: ReturnType<Subledger['held']> } {
  const reliefs: ReliefLine[] = [];
  let held: ReturnType<Subledger['held']> = [];
  let from = '';
  MONTH_ENDS.forEach((to, i) => {
    const ledger = new Subledger(o, i === 0 ? first : []);
    ledger.seed(held);
    const month = movements.filter((m) => m.entry.postedAt >= from && m.entry.postedAt < to);
    for (const e of inOrder(lotEvents(month).events)) reliefs.push(...ledger.apply(e).reliefs);
    held = ledger.held();
    from = to;
  });
  return { reliefs, held };
}

/** A first close of December: the months before it replayed, then December's own events. */
function replay(movements: readonly Movement[], o: SubledgerOptions, first: readonly OpeningLot[]): { reliefs: ReliefLine[]; held: ReturnType<Subledger['held']> } {
  const ledger = new Subledger(o, first);
  const reliefs: ReliefLine[] = [];
  const apply = ledger.apply.bind(ledger);
  ledger.apply = (e) => {
    const applied = apply(e);
    reliefs.push(...applied.reliefs);
    return applied;
  };
  const blocks = monthBlocks(movements, DECEMBER);
  replayMonths(ledger, blocks.months);
  for (const e of inOrder(lotEvents(blocks.rest).events)) ledger.apply(e);
  return { reliefs, held: ledger.held() };
}

describe('a first close and the chain of closes, for any history', () => {
  it('relieve the same lines and hold the same lots', () => {
    fc.assert(
      fc.property(history, openings, methods, (movements, first, perHolder) => {
        const o = options(perHolder);
        expect(replay(movements, o, first)).toEqual(chain(movements, o, first));
      }),
      { numRuns: 500 },
    );
  });
});
