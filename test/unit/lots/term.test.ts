/**
 * One calendar (docs/tax.md): the holding period is counted on the books' calendar, the one Form
 * 8949's dates are printed in, so a row's part never contradicts its printed dates. Disposals one
 * day before, on and after the first anniversary, early and late in the day, in UTC and in a zone on
 * either side of it: the subledger's term is the one the printed dates give, and counted on UTC
 * dates it would not always have been.
 */
import { TZDate } from '@date-fns/tz';
import { describe, expect, it } from 'vitest';
import { localDate } from '../../../src/journal/build-movement.js';
import { Subledger } from '../../../src/lots/subledger.js';
import { anniversary, holdingTerm, termOfDays, UTC_DAY } from '../../../src/lots/term.js';
import { ZonedClock } from '../../../src/model/zoned-time.js';

/** a wall-clock time in `tz` as the snapshot's UTC instant text */
function at(tz: string, y: number, m: number, d: number, hh: number, mm: number): string {
  return `${new Date(new TZDate(y, m - 1, d, hh, mm, 0, tz).getTime()).toISOString().slice(0, 19)}.000000Z`;
}

/** the printed MM/DD/YYYY date back to YYYY-MM-DD, and the term a reader of the two printed dates finds */
const printed = (clock: ZonedClock, instant: string): string => {
  const [y, m, d] = localDate(clock, instant).split('-');
  return `${m}/${d}/${y}`;
};
const readersTerm = (acquired: string, sold: string): 'short' | 'long' => {
  const iso = (us: string): string => `${us.slice(6)}-${us.slice(0, 2)}-${us.slice(3, 5)}`;
  const [y, md] = [Number(acquired.slice(6)), iso(acquired).slice(4)];
  // more than one year: the sale date is past the same month and day a year later (29 Feb → 28 Feb)
  return iso(sold) > `${y + 1}${md === '-02-29' ? '-02-28' : md}` ? 'long' : 'short';
};

describe('the holding period on the books’ calendar', () => {
  for (const tz of ['UTC', 'America/New_York', 'Asia/Tokyo']) {
    it(`in ${tz}: one day before, on and after the anniversary, the part agrees with the printed dates`, () => {
      const clock = new ZonedClock(tz);
      const day = (instant: string): string => localDate(clock, instant);
      let utcWouldDiffer = 0;
      const seen: string[] = [];
      for (const acquiredHour of [0, 23]) {
        for (const [soldDay, expected] of [[14, 'short'], [15, 'short'], [16, 'long']] as const) {
          for (const soldHour of [0, 23]) {
            const acquiredAt = at(tz, 2025, 3, 15, acquiredHour, 30);
            const disposedAt = at(tz, 2026, 3, soldDay, soldHour, 30);
            const ledger = new Subledger({ methods: new Map(), day });
            ledger.apply({ type: 'acquire', walletId: 'w', currency: 'btc', at: acquiredAt, ref: 'credited:r', origin: 'receive', units: 1000n, cost: 100n });
            const [line] = ledger.apply({ type: 'dispose', walletId: 'w', currency: 'btc', at: disposedAt, ref: 'captured:s', legs: [{ part: 'principal', units: 1000n, proceeds: 150n }] }).reliefs;
            const b = printed(clock, acquiredAt);
            const c = printed(clock, disposedAt);
            expect({ b, c, term: line?.term }).toEqual({ b: '03/15/2025', c: `03/${soldDay}/2026`, term: expected });
            expect(readersTerm(b, c)).toBe(line?.term);
            if (holdingTerm(acquiredAt, disposedAt, UTC_DAY) !== expected) utcWouldDiffer += 1;
            seen.push(`${b}→${c} ${line?.term}`);
          }
        }
      }
      expect(seen).toHaveLength(12);
      // in UTC the two calendars are one; on either side of it a UTC count would contradict some printed dates
      if (tz === 'UTC') expect(utcWouldDiffer).toBe(0);
      else expect(utcWouldDiffer).toBeGreaterThan(0);
    });
  }

  it('counts from the day after acquisition: the anniversary itself is short, 29 February’s is 28 February', () => {
    expect(anniversary('2025-03-15')).toBe('2026-03-15');
    expect(anniversary('2024-02-29')).toBe('2025-02-28');
    expect(termOfDays('2024-02-29', '2025-02-28')).toBe('short');
    expect(termOfDays('2024-02-29', '2025-03-01')).toBe('long');
    expect(termOfDays('2025-12-31', '2026-12-31')).toBe('short');
    expect(termOfDays('2025-12-31', '2027-01-01')).toBe('long');
  });
});
