import type { UtcInstant } from './rows.js';

/** A half-open interval of instants [from, to) in UTC; `tz` is the reporting zone it came from. */
export interface Window {
  from: UtcInstant;
  to: UtcInstant;
  tz: string;
}

/**
 * Whether `instant` falls inside `window` (from <= instant < to). Canonical UtcInstants compare
 * as text (fixed width, microseconds, `Z`), so this is string comparison on purpose.
 */
export function windowContains(window: { from: UtcInstant; to: UtcInstant }, instant: UtcInstant): boolean {
  return window.from <= instant && instant < window.to;
}
