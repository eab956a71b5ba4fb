/**
 * The replay of the months before the window (src/lots/replay-months.ts) against the chain of
 * closes it stands for, computed here the way the chain computes it: one Subledger per month,
 * each seeded with the previous month's held lots. A treasury send on the last evening of
 * September whose receive lands on 1 October pairs in neither (a disposal, then an acquisition);
 * an `average` wallet relieves the same cents whether the lots were reseated at the month's end or
 * seeded from a close; the window's own month is left to the window's run.
 */
import { describe, expect, it } from 'vitest';
import type { JournalEntry } from '../../../src/journal/model.js';
import { inOrder } from '../../../src/lots/event-order.js';
import { lotEvents, type Movement } from '../../../src/lots/events.js';
import type { OpeningLot, ReliefLine } from '../../../src/lots/model.js';
import { monthBlocks, replayMonths } from '../../../src/lots/replay-months.js';
import { Subledger, type SubledgerOptions } from '../../../src/lots/subledger.js';
import type { Window } from '../../../src/model/window.js';

const NOVEMBER: Window = { from: '2026-11-01T04:00:00.000000Z', to: '2026-12-01T05:00:00.000000Z', tz: 'America/New_York' };
const line = (component: JournalEntry['lines'][number]['component'], side: 'debit' | 'credit', units: bigint, amount: bigint | null): JournalEntry['lines'][number] => ({ account: 'x', side, component, source: { amount: units, currency: 'btc', unit: 'msat' }, amount, memo: '' });
const entry = (walletId: string, ref: string, at: string, lines: JournalEntry['lines']): JournalEntry => ({ entryNo: `PX-${ref}`, kind: 'movement', date: at.slice(0, 10), postedAt: at, walletId, paymentId: `p-${ref}`, ledgerRef: ref, narration: '', valuation: null, lines });
const out = (walletId: string, ref: string, at: string, units: bigint, value: bigint, treasury = false): Movement => ({ entry: entry(walletId, ref, at, [line('wallet', 'credit', units, value), line('principal', 'debit', units, value)]), currency: 'btc', inflow: false, treasury, swap: false, noPayment: false, pairKey: treasury ? 'h' : null });
const into = (walletId: string, ref: string, at: string, units: bigint, value: bigint, how: { treasury?: boolean; deposit?: boolean } = {}): Movement => ({ entry: entry(walletId, ref, at, [line('wallet', 'debit', units, value), line('principal', 'credit', units, value)]), currency: 'btc', inflow: true, treasury: how.treasury ?? false, swap: false, noPayment: how.deposit ?? false, pairKey: how.treasury === true ? 'h' : null });

/** The chain of closes: each month its own run (its own events, its own pairing), seeded from the previous month's held lots. */
function chain(options: SubledgerOptions, openings: readonly OpeningLot[], months: readonly Movement[][]): { reliefs: ReliefLine[]; held: ReturnType<Subledger['held']> } {
  const reliefs: ReliefLine[] = [];
  let held: ReturnType<Subledger['held']> = [];
  months.forEach((movements, i) => {
    const ledger = new Subledger(options, openings.filter((o) => i === 0 || o.ref !== null));
    ledger.seed(held);
    for (const e of inOrder(lotEvents(movements).events)) reliefs.push(...ledger.apply(e).reliefs);
    held = ledger.held();
  });
  return { reliefs, held };
}

/** The replay: one Subledger, the months split by monthBlocks and applied by replayMonths. */
function replay(options: SubledgerOptions, openings: readonly OpeningLot[], movements: readonly Movement[]): { reliefs: ReliefLine[]; held: ReturnType<Subledger['held']>; rest: Movement[] } {
  const ledger = new Subledger(options, openings);
  const reliefs: ReliefLine[] = [];
  const apply = ledger.apply.bind(ledger);
  ledger.apply = (e) => {
    const applied = apply(e);
    reliefs.push(...applied.reliefs);
    return applied;
  };
  const blocks = monthBlocks(movements, NOVEMBER);
  replayMonths(ledger, blocks.months);
  return { reliefs, held: ledger.held(), rest: blocks.rest };
}

describe('the replay of the months before the window', () => {
  it('pairs a treasury send only with a receive of its own month, as the two closes would', () => {
    const buy = into('A', 'credited:buy', '2026-09-02T12:00:00.000000Z', 10_000n, 900n);
    // 23:00 on 30 September in New York is 03:00Z on 1 October; the receive is 00:30 on 1 October there
    const send = out('A', 'captured:send', '2026-10-01T03:00:00.000000Z', 4_000n, 400n, true);
    const receive = into('B', 'credited:recv', '2026-10-01T04:30:00.000000Z', 4_000n, 401n, { treasury: true });
    const later = out('B', 'captured:later', '2026-10-20T12:00:00.000000Z', 1_000n, 120n);
    const options = { methods: new Map() };
    const replayed = replay(options, [], [buy, send, receive, later]);
    const chained = chain(options, [], [[buy, send], [receive, later]]);
    expect(replayed).toEqual({ ...chained, rest: [] });
    // the send is a disposal of September (a gain), the receive a lot of October at its own value
    expect(replayed.reliefs.find((r) => r.disposalRef === 'captured:send')).toMatchObject({ part: 'principal', units: 4_000n, cost: 360n, proceeds: 400n });
    expect(replayed.reliefs.find((r) => r.disposalRef === 'captured:later')).toMatchObject({ walletId: 'B', acquiredAt: receive.entry.postedAt, cost: 100n });
    // the same events in one block (what the replay did before) would have paired them: a transfer, no gain
    const together = new Subledger(options);
    const oneBlock = inOrder(lotEvents([buy, send, receive]).events).flatMap((e) => together.apply(e).reliefs);
    expect(oneBlock.some((r) => r.disposalRef === 'captured:send' && r.part === 'principal')).toBe(false);
  });

  it('reseats the lots at each month end, so an average wallet shares its cents as a seeded close does', () => {
    // a deposit whose basis is older than the receive before it: held order differs from insertion order
    const receive = into('A', 'credited:r', '2026-09-02T12:00:00.000000Z', 1_000n, 0n);
    const deposit = into('A', 'deposited:d', '2026-09-10T12:00:00.000000Z', 1_000n, 5n, { deposit: true });
    const sell = out('A', 'captured:s', '2026-10-05T12:00:00.000000Z', 1_000n, 10n);
    const openings: OpeningLot[] = [{ walletId: 'A', currency: 'btc', acquiredAt: '2024-03-15T12:00:00.000000Z', units: 1_000n, cost: 1n, ref: 'deposited:d' }];
    const options: SubledgerOptions = { methods: new Map([['A', [{ method: 'average', from: '2025-01-01' }]]]) };
    const replayed = replay(options, openings, [receive, deposit, sell]);
    expect(replayed).toEqual({ ...chain(options, openings, [[receive, deposit], [sell]]), rest: [] });
    // the cent of the average went to the older lot (held order), which the sale relieves
    expect(replayed.reliefs).toMatchObject([{ disposalRef: 'captured:s', acquiredAt: '2024-03-15T12:00:00.000000Z', cost: 1n }]);
  });

  it("seats opening lots in held() order from the start: a first month without movements changes nothing (the property's counterexample)", () => {
    // two opening lots of one date, 1 cent between them; the first send comes in October, so the
    // replay's first block is October while the chain seeds October from September's held()
    // for wallet w1 the two rows' lot ids sort the other way round from the file (an id holds its row number)
    const lot = (cost: bigint): OpeningLot => ({ walletId: 'w1', currency: 'btc', acquiredAt: '2024-06-01T00:00:00.000000Z', units: 1_000n, cost, ref: null });
    const openings = [lot(0n), lot(1n)];
    const send = out('w1', 'captured:s', '2026-10-01T04:00:01.000000Z', 1_001n, 1n);
    const options: SubledgerOptions = { methods: new Map([['w1', [{ method: 'average', from: '2025-01-01' }]]]) };
    const replayed = replay(options, openings, [send]);
    expect(replayed).toEqual({ ...chain(options, openings, [[], [send]]), rest: [] });
    // a ledger started from the file relieves as one seeded from what a close of it records
    const seeded = new Subledger(options);
    seeded.seed(new Subledger(options, openings).held());
    const relief = (ledger: Subledger): ReliefLine[] => inOrder(lotEvents([send]).events).flatMap((e) => ledger.apply(e).reliefs);
    expect(relief(new Subledger(options, openings))).toEqual(relief(seeded));
  });

  it("leaves the window's month to the window's run, and the months before it in their order", () => {
    const sept = into('A', 'credited:1', '2026-09-15T12:00:00.000000Z', 1n, 1n);
    const oct = into('A', 'credited:2', '2026-10-15T12:00:00.000000Z', 1n, 1n);
    const nov = into('A', 'credited:3', '2026-11-15T12:00:00.000000Z', 1n, 1n);
    const { months, rest } = monthBlocks([nov, oct, sept], NOVEMBER);
    expect(months.map((m) => [m.period, m.to, m.movements])).toEqual([
      ['2026-09', '2026-10-01T04:00:00.000000Z', [sept]],
      ['2026-10', '2026-11-01T04:00:00.000000Z', [oct]],
    ]);
    expect(rest).toEqual([nov]);
    // an export from 10 November: 1–9 November go with the window, not as a month of their own
    expect(monthBlocks([nov, oct], { ...NOVEMBER, from: '2026-11-10T05:00:00.000000Z' }).rest).toEqual([nov]);
    expect(monthBlocks([into('A', 'credited:4', '2026-11-03T12:00:00.000000Z', 1n, 1n)], { ...NOVEMBER, from: '2026-11-10T05:00:00.000000Z' })).toMatchObject({ months: [], rest: [{ entry: { ledgerRef: 'credited:4' } }] });
  });
});
