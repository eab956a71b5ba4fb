/**
 * Reporting periods and time zones. Users speak in inclusive calendar dates in `--tz`; the
 * pipeline works on half-open UTC windows [from, to); the API takes inclusive RFC 3339 bounds.
 * October in America/New_York is [2026-10-01T04:00Z, 2026-11-01T04:00Z): month and day
 * boundaries are midnights in the zone, so DST days are 23 or 25 hours long.
 */
import { TZDate } from '@date-fns/tz';
import { usageError } from '../util/errors.js';
import { instantFromDate } from './instant.js';
import type { UtcInstant } from './rows.js';
import type { Window } from './window.js';

export interface CalendarDate {
  year: number;
  month: number;
  day: number;
}

export type PeriodKind = 'range' | 'month' | 'day';

export interface Period {
  kind: PeriodKind;
  /** folder name under `<out>/<job>/`: `2026-10`, `2026-11-21`, `2026-10-01_2026-10-31` */
  label: string;
  /** first and last calendar day, inclusive, in the reporting zone */
  firstDay: string;
  lastDay: string;
  window: Window;
}

const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;
const MONTH_RE = /^(\d{4})-(\d{2})$/;

/** Throws exit 64 unless `tz` is an IANA zone this Node knows (or `UTC`). */
export function checkTimeZone(tz: string): string {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
  } catch {
    throw usageError('bad_time_zone', `invalid --tz '${tz}' (expected an IANA time zone such as UTC or America/New_York)`);
  }
  return tz;
}

/** Parses `YYYY-MM-DD` strictly (a real calendar day), naming the option in the error. */
export function parseCalendarDate(option: string, value: string): CalendarDate {
  const m = DATE_RE.exec(value);
  if (m) {
    const year = Number(m[1]);
    const month = Number(m[2]);
    const day = Number(m[3]);
    const probe = new Date(Date.UTC(year, month - 1, day));
    if (probe.getUTCFullYear() === year && probe.getUTCMonth() === month - 1 && probe.getUTCDate() === day && year >= 2000) {
      return { year, month, day };
    }
  }
  throw usageError('bad_date', `invalid ${option} '${value}' (expected a real date as YYYY-MM-DD)`, { option, value });
}

/** Parses `YYYY-MM` strictly. */
export function parseMonth(option: string, value: string): { year: number; month: number } {
  const m = MONTH_RE.exec(value);
  if (m) {
    const year = Number(m[1]);
    const month = Number(m[2]);
    if (month >= 1 && month <= 12 && year >= 2000) return { year, month };
  }
  throw usageError('bad_month', `invalid ${option} '${value}' (expected YYYY-MM)`, { option, value });
}

export function formatCalendarDate(date: CalendarDate): string {
  return `${String(date.year).padStart(4, '0')}-${String(date.month).padStart(2, '0')}-${String(date.day).padStart(2, '0')}`;
}

/** The calendar day after `date` (pure calendar arithmetic, no zone involved). */
export function nextDay(date: CalendarDate): CalendarDate {
  const d = new Date(Date.UTC(date.year, date.month - 1, date.day + 1));
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() };
}

/** Midnight starting `date` in `tz`, as a UTC instant. */
export function startOfDayIn(date: CalendarDate, tz: string): UtcInstant {
  return instantFromDate(new Date(new TZDate(date.year, date.month - 1, date.day, tz).getTime()));
}

/** The calendar date of an instant in `tz`. */
export function calendarDateIn(at: Date, tz: string): CalendarDate {
  const local = new TZDate(at.getTime(), tz);
  return { year: local.getFullYear(), month: local.getMonth() + 1, day: local.getDate() };
}

/** Inclusive `--from`/`--to` dates in `tz`. Reversed ranges and ranges starting in the future exit 64. */
export function rangePeriod(fromText: string, toText: string, tz: string, now: Date): Period {
  checkTimeZone(tz);
  const first = parseCalendarDate('--from', fromText);
  const last = parseCalendarDate('--to', toText);
  if (formatCalendarDate(first) > formatCalendarDate(last)) {
    throw usageError('reversed_range', `--from '${fromText}' is after --to '${toText}'`, { from: fromText, to: toText });
  }
  const period = makePeriod('range', `${formatCalendarDate(first)}_${formatCalendarDate(last)}`, first, last, tz);
  refuseFuture(period, now, `--from '${fromText}'`);
  return period;
}

/** A calendar month in `tz`; without `monthText`, the month before the current one in `tz` (the month-end default). */
export function monthPeriod(monthText: string | undefined, tz: string, now: Date): Period {
  checkTimeZone(tz);
  const { year, month } = monthText === undefined ? previousMonth(calendarDateIn(now, tz)) : parseMonth('--month', monthText);
  const first = { year, month, day: 1 };
  const last = new Date(Date.UTC(year, month, 0));
  const lastDay = { year, month, day: last.getUTCDate() };
  const period = makePeriod('month', `${year}-${String(month).padStart(2, '0')}`, first, lastDay, tz);
  refuseFuture(period, now, `--month '${period.label}'`);
  return period;
}

function previousMonth(today: CalendarDate): { year: number; month: number } {
  return today.month === 1 ? { year: today.year - 1, month: 12 } : { year: today.year, month: today.month - 1 };
}

/** One calendar day in `tz`; without `dateText`, the day before today in `tz` (the nightly default). */
export function dayPeriod(dateText: string | undefined, tz: string, now: Date): Period {
  checkTimeZone(tz);
  let day: CalendarDate;
  if (dateText === undefined) {
    const today = calendarDateIn(now, tz);
    const y = new Date(Date.UTC(today.year, today.month - 1, today.day - 1));
    day = { year: y.getUTCFullYear(), month: y.getUTCMonth() + 1, day: y.getUTCDate() };
  } else {
    day = parseCalendarDate('--date', dateText);
  }
  const period = makePeriod('day', formatCalendarDate(day), day, day, tz);
  refuseFuture(period, now, `--date '${formatCalendarDate(day)}'`);
  return period;
}

function makePeriod(kind: PeriodKind, label: string, first: CalendarDate, last: CalendarDate, tz: string): Period {
  return {
    kind,
    label,
    firstDay: formatCalendarDate(first),
    lastDay: formatCalendarDate(last),
    window: { from: startOfDayIn(first, tz), to: startOfDayIn(nextDay(last), tz), tz },
  };
}

function refuseFuture(period: Period, now: Date, what: string): void {
  if (period.window.from > instantFromDate(now)) {
    throw usageError('future_period', `${what} starts in the future (${period.window.from} > now)`, { from: period.window.from });
  }
}

/** True when the window has fully elapsed: nothing new can be created inside it. */
export function isClosedWindow(window: Window, now: Date): boolean {
  return window.to <= instantFromDate(now);
}

/** `instant` shifted back by whole days (for the nightly look-back). */
export function minusDays(instant: UtcInstant, days: number): UtcInstant {
  const shifted = new Date(new Date(instant.slice(0, 19) + 'Z').getTime() - days * 86_400_000);
  return `${shifted.toISOString().slice(0, 19)}${instant.slice(19)}`;
}

/** The nightly payments sweep: `window` widened back by the look-back, so late changes to recent payments are re-read. */
export function lookbackWindow(window: Window, lookbackDays: number): Window {
  return { ...window, from: minusDays(window.from, lookbackDays) };
}
