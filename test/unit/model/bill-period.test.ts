/**
 * Which report ties which bill (src/model/bill-period.ts): the one whose window holds the period's
 * midpoint and at least half of it — October's UTC bill by October's month-end in any zone, a week
 * whose midpoint falls exactly on a zone's month boundary by the later month, each bill by one
 * window of a partition of time at most (exactly one when the windows are at least as long as the
 * period) — and the payments beyond the window its tie needs.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { billPaymentRanges, midpointOf, outsideOf, tiesBill } from '../../../src/model/bill-period.js';
import { dayPeriod, monthPeriod } from '../../../src/model/period.js';
import type { BillRecord, BillRow } from '../../../src/model/rows.js';

const NOW = new Date('2030-01-01T00:00:00Z');
const month = (label: string, tz: string) => monthPeriod(label, tz, NOW).window;
const period = (start_time: string, end_time: string) => ({ start_time, end_time });
const OCTOBER = period('2026-10-01T00:00:00.000000Z', '2026-11-01T00:00:00.000000Z');

describe('tiesBill', () => {
  it.each([
    ['UTC', []],
    ['America/New_York', [['2026-10-01T00:00:00.000000Z', '2026-10-01T04:00:00.000000Z']]],
    ['Asia/Tokyo', [['2026-10-31T15:00:00.000000Z', '2026-11-01T00:00:00.000000Z']]],
    ['Pacific/Kiritimati', [['2026-10-31T10:00:00.000000Z', '2026-11-01T00:00:00.000000Z']]],
  ])("ties October's UTC bill by October's month-end in %s, not by September's or November's, reading the hours outside it", (tz, outside) => {
    expect(['2026-09', '2026-10', '2026-11'].map((m) => tiesBill(month(m, tz), OCTOBER))).toEqual([false, true, false]);
    expect(outsideOf({ from: OCTOBER.start_time, to: OCTOBER.end_time }, month('2026-10', tz)).map((r) => [r.from, r.to])).toEqual(outside);
  });

  it('a week whose midpoint is the first instant of a month in the zone is tied by that month (half-open windows), not the month before', () => {
    // Pacific/Tarawa is UTC+12: October 2027 starts there at 12:00 UTC on Thursday 30 September,
    // the middle of the week from Monday 27 September — each month holds exactly half of it
    const week = period('2027-09-27T00:00:00.000000Z', '2027-10-04T00:00:00.000000Z');
    const [september, october] = [month('2027-09', 'Pacific/Tarawa'), month('2027-10', 'Pacific/Tarawa')];
    expect(october.from).toBe('2027-09-30T12:00:00.000000Z');
    expect(midpointOf(week)).toBe(october.from);
    expect([tiesBill(september, week), tiesBill(october, week)]).toEqual([false, true]);
    // a microsecond either side moves the bill to the other month
    const earlier = period('2027-09-27T00:00:00.000000Z', '2027-10-03T23:59:59.999998Z');
    expect(midpointOf(earlier)).toBe('2027-09-30T11:59:59.999999Z');
    expect([tiesBill(september, earlier), tiesBill(october, earlier)]).toEqual([true, false]);
  });

  it("a day's window never ties a week it holds the middle of; it ties its own UTC day's bill from a zone", () => {
    const thursday = dayPeriod('2026-10-08', 'UTC', NOW).window;
    expect(tiesBill(thursday, period('2026-10-05T00:00:00.000000Z', '2026-10-12T00:00:00.000000Z'))).toBe(false);
    const newYork = dayPeriod('2026-10-08', 'America/New_York', NOW).window;
    expect(tiesBill(newYork, period('2026-10-08T00:00:00.000000Z', '2026-10-09T00:00:00.000000Z'))).toBe(true);
  });

  it('ties no bill whose period cannot be read or is empty', () => {
    const october = month('2026-10', 'UTC');
    for (const bad of [period('', OCTOBER.end_time), period(OCTOBER.start_time, 'soon'), period(OCTOBER.end_time, OCTOBER.start_time), period(OCTOBER.start_time, OCTOBER.start_time)]) {
      expect(tiesBill(october, bad)).toBe(false);
      expect(midpointOf(bad)).toBeNull();
    }
  });

  const ZONES = ['UTC', 'America/New_York', 'Asia/Tokyo', 'Pacific/Kiritimati', 'Pacific/Pago_Pago', 'Australia/Lord_Howe', 'Asia/Kathmandu', 'Europe/London'];
  const LENGTHS_DAYS = [1, 7, 28, 30, 31, 61];

  const months = new Map<string, Array<ReturnType<typeof month>>>();
  // January 2025 to June 2029: every bill the property draws lies inside
  const monthsIn = (tz: string) => months.get(tz) ?? months.set(tz, Array.from({ length: 54 }, (_, i) => month(`${2025 + Math.floor(i / 12)}-${String((i % 12) + 1).padStart(2, '0')}`, tz))).get(tz)!;

  it('over successive month-ends in one zone, a bill is tied by one of them at most, and by exactly one when it is no longer than the shortest month', () => {
    fc.assert(
      fc.property(fc.constantFrom(...ZONES), fc.integer({ min: 0, max: 3 * 365 * 24 * 3600 }), fc.constantFrom(...LENGTHS_DAYS), fc.integer({ min: 0, max: 999_999 }), (tz, offsetSeconds, days, micros) => {
        const startMs = Date.UTC(2026, 0, 1) + offsetSeconds * 1000;
        const bill = period(instant(startMs, micros), instant(startMs + days * 86_400_000, micros));
        const months = monthsIn(tz);
        const tying = months.filter((w) => tiesBill(w, bill));
        expect(tying.length).toBeLessThanOrEqual(1);
        // a month in any zone is at least 28 days less 2 hours of a DST change
        if (days <= 27) expect(tying).toHaveLength(1);
        // and a tying window holds the midpoint and at least half the period
        for (const w of tying) expect(w.from <= midpointOf(bill)! && midpointOf(bill)! < w.to).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});

describe('billPaymentRanges', () => {
  const window = month('2026-10', 'America/New_York');
  const record = (bill_id: string, start: string, end: string, loc: string, lineWallets: string[] = []): BillRecord => ({
    bill: { bill_id, line_of_credit_id: loc, start_time: start, end_time: end } as BillRow,
    line_items: lineWallets.map((wallet_id) => ({ wallet_id }) as BillRecord['line_items'][number]),
  });

  it("the bills tied by the window that charge the wallet: their periods less the window, merged, once each", () => {
    const bills = [
      record('month', OCTOBER.start_time, OCTOBER.end_time, 'loc-a'),
      // a week over the month's start, tied by October: its part before the window overlaps the month's
      record('week', '2026-09-28T00:00:00.000000Z', '2026-10-05T00:00:00.000000Z', 'loc-b', ['w1']),
      // November's bill: tied by November, not read here
      record('november', '2026-11-01T00:00:00.000000Z', '2026-12-01T00:00:00.000000Z', 'loc-a'),
      // another line of credit's bill that does not list the wallet
      record('other', '2026-09-30T00:00:00.000000Z', '2026-10-07T00:00:00.000000Z', 'loc-c', ['w9']),
    ];
    expect(billPaymentRanges(window, bills, { wallet_id: 'w1', line_of_credit_id: 'loc-a' })).toEqual([{ from: '2026-09-28T00:00:00.000000Z', to: '2026-10-01T04:00:00.000000Z' }]);
    expect(billPaymentRanges(window, bills, { wallet_id: 'w2', line_of_credit_id: 'loc-a' })).toEqual([{ from: OCTOBER.start_time, to: window.from }]);
    expect(billPaymentRanges(window, bills, { wallet_id: 'w3', line_of_credit_id: null })).toEqual([]);
    expect(billPaymentRanges(month('2026-10', 'UTC'), bills, { wallet_id: 'w2', line_of_credit_id: 'loc-a' })).toEqual([]);
  });
});

function instant(ms: number, micros: number): string {
  return `${new Date(ms).toISOString().slice(0, 19)}.${String(micros).padStart(6, '0')}Z`;
}
