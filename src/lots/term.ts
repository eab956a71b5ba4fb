/**
 * Short or long term: long when the asset was held more than one year (IRC §1222), counted from
 * the day after acquisition, so a disposal on the anniversary is still short term. Dates are
 * UTC calendar dates; a lot acquired on 29 February has its anniversary on 28 February.
 */
import type { Term } from './model.js';

export function holdingTerm(acquiredAt: string, disposedAt: string): Term {
  const year = Number(acquiredAt.slice(0, 4)) + 1;
  let monthDay = acquiredAt.slice(4, 10);
  if (monthDay === '-02-29') monthDay = '-02-28';
  const anniversary = `${String(year).padStart(4, '0')}${monthDay}`;
  return disposedAt.slice(0, 10) > anniversary ? 'long' : 'short';
}
