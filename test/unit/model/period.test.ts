import { describe, expect, it } from 'vitest';
import { AppError } from '../../../src/util/errors.js';
import { dayPeriod, lookbackWindow, minusDays, monthPeriod, rangePeriod } from '../../../src/model/period.js';

const now = new Date('2026-11-22T07:00:00Z');

function usage(fn: () => unknown): AppError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).exitCode).toBe(64);
    return error as AppError;
  }
  throw new Error('expected a usage error');
}

describe('periods', () => {
  it('October in America/New_York runs 04:00Z to 04:00Z', () => {
    const p = monthPeriod('2026-10', 'America/New_York', now);
    expect(p.window).toEqual({ from: '2026-10-01T04:00:00.000000Z', to: '2026-11-01T04:00:00.000000Z', tz: 'America/New_York' });
    expect(p.label).toBe('2026-10');
    expect(p.lastDay).toBe('2026-10-31');
  });

  it('without --month, month-end takes the month before the current one in the zone', () => {
    expect(monthPeriod(undefined, 'UTC', now).label).toBe('2026-10');
    // 2026-12-01T03:00Z is still November 30 in New York: the previous month is October
    expect(monthPeriod(undefined, 'America/New_York', new Date('2026-12-01T03:00:00Z')).label).toBe('2026-10');
    expect(monthPeriod(undefined, 'UTC', new Date('2027-01-01T00:00:00Z')).window).toMatchObject({ from: '2026-12-01T00:00:00.000000Z', to: '2027-01-01T00:00:00.000000Z' });
  });

  it('a UTC month is midnight to midnight', () => {
    expect(monthPeriod('2026-02', 'UTC', now).window).toMatchObject({ from: '2026-02-01T00:00:00.000000Z', to: '2026-03-01T00:00:00.000000Z' });
  });

  it('the DST day in New York is 25 hours long', () => {
    const p = rangePeriod('2026-11-01', '2026-11-01', 'America/New_York', now);
    expect(p.window.from).toBe('2026-11-01T04:00:00.000000Z');
    expect(p.window.to).toBe('2026-11-02T05:00:00.000000Z');
  });

  it('a spring-forward day in Berlin is 23 hours long', () => {
    const p = dayPeriod('2026-03-29', 'Europe/Berlin', now);
    expect(p.window).toMatchObject({ from: '2026-03-28T23:00:00.000000Z', to: '2026-03-29T22:00:00.000000Z' });
  });

  it('nightly defaults to yesterday in the zone', () => {
    expect(dayPeriod(undefined, 'UTC', now).label).toBe('2026-11-21');
    // 07:00Z on the 22nd is still the 21st in Los Angeles, so yesterday is the 20th.
    expect(dayPeriod(undefined, 'America/Los_Angeles', now).label).toBe('2026-11-20');
  });

  it('inclusive ranges label both ends', () => {
    const p = rangePeriod('2026-10-01', '2026-10-31', 'UTC', now);
    expect(p.label).toBe('2026-10-01_2026-10-31');
    expect(p.window.to).toBe('2026-11-01T00:00:00.000000Z');
  });

  it.each([
    ['2024-02-30', '2024-03-01', "--from '2024-02-30'"],
    ['2024-13-01', '2024-12-01', "--from '2024-13-01'"],
    ['31/01/2024', '2024-02-01', "--from '31/01/2024'"],
    ['2024-01-01', 'yesterday-ish', "--to 'yesterday-ish'"],
  ])('bad date %s..%s names the offending value', (from, to, named) => {
    expect(usage(() => rangePeriod(from, to, 'UTC', now)).message).toContain(named);
  });

  it('a reversed range names both values', () => {
    const error = usage(() => rangePeriod('2026-10-31', '2026-10-01', 'UTC', now));
    expect(error.message).toContain("'2026-10-31'");
    expect(error.message).toContain("'2026-10-01'");
    expect(error.type).toBe('reversed_range');
  });

  it('refuses a period that starts in the future, a bad month and a bad zone', () => {
    expect(usage(() => monthPeriod('2026-12', 'UTC', now)).type).toBe('future_period');
    expect(usage(() => monthPeriod('2026-13', 'UTC', now)).type).toBe('bad_month');
    expect(usage(() => monthPeriod('2026-10', 'Mars/Olympus', now)).type).toBe('bad_time_zone');
  });
});

describe('look-back', () => {
  it('shifts by whole days', () => {
    expect(minusDays('2026-11-21T00:00:00.000000Z', 7)).toBe('2026-11-14T00:00:00.000000Z');
  });

  it('widens only the start of the window', () => {
    const window = { from: '2026-11-21T05:00:00.000000Z', to: '2026-11-22T05:00:00.000000Z', tz: 'America/New_York' };
    expect(lookbackWindow(window, 7)).toEqual({ from: '2026-11-14T05:00:00.000000Z', to: window.to, tz: window.tz });
  });
});
