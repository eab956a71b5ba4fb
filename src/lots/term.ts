/**
 * Short or long term: long when the asset was held more than one year (IRC §1222), counted from
 * the day after acquisition and including the day of disposal (Instructions for Form 8949 (2025),
 * "Short-Term or Long-Term"), so a disposal on the anniversary is still short term. A lot acquired
 * on 29 February has its anniversary on 28 February.
 *
 * The days are calendar days of one calendar: the books' zone, the zone the report's dates are
 * printed in (Form 8949's columns (b) and (c), lot-reliefs.csv), so a row's part never contradicts
 * the dates printed on it (docs/tax.md "One calendar"). `day` turns an instant into that zone's
 * YYYY-MM-DD; without one the calendar is UTC's.
 */
import type { Term } from './model.js';

/** An instant's calendar date (YYYY-MM-DD) in the books' zone. */
export type LocalDay = (instant: string) => string;

/** The UTC calendar: an instant's own date (a report in UTC, and tests without a zone). */
export const UTC_DAY: LocalDay = (instant) => instant.slice(0, 10);

export function holdingTerm(acquiredAt: string, disposedAt: string, day: LocalDay = UTC_DAY): Term {
  return termOfDays(day(acquiredAt), day(disposedAt));
}

/** The term of a disposal on `disposedDay` of units acquired on `acquiredDay` (both YYYY-MM-DD). */
export function termOfDays(acquiredDay: string, disposedDay: string): Term {
  return disposedDay > anniversary(acquiredDay) ? 'long' : 'short';
}

/** The calendar date one year after `acquiredDay`: the last day a disposal is still short term. */
export function anniversary(acquiredDay: string): string {
  const year = Number(acquiredDay.slice(0, 4)) + 1;
  let monthDay = acquiredDay.slice(4, 10);
  if (monthDay === '-02-29') monthDay = '-02-28';
  return `${String(year).padStart(4, '0')}${monthDay}`;
}

const DAY_MS = 86_400_000;

/** Whole calendar days from `fromDay` to `toDay` (YYYY-MM-DD each). */
export function daysBetween(fromDay: string, toDay: string): number {
  return Math.round((Date.parse(toDay) - Date.parse(fromDay)) / DAY_MS);
}
