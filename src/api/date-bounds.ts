/**
 * The API's `start_date`/`end_date` are INCLUSIVE bounds on creation time (docs/service-facts.md#endpoints, endpoint 10), with
 * microsecond timestamps; our window is half-open, so the last included instant is `to` − 1 µs.
 */
import type { UtcInstant } from '../model/rows.js';
import type { Window } from '../model/window.js';

export function apiDateBounds(window: Window): { start_date: string; end_date: string } {
  return { start_date: window.from, end_date: minusOneMicrosecond(window.to) };
}

export function minusOneMicrosecond(instant: UtcInstant): UtcInstant {
  const micros = Number(instant.slice(20, 26));
  if (micros > 0) return `${instant.slice(0, 20)}${String(micros - 1).padStart(6, '0')}Z`;
  const previousSecond = new Date(new Date(instant.slice(0, 19) + 'Z').getTime() - 1000);
  return `${previousSecond.toISOString().slice(0, 19)}.999999Z`;
}
