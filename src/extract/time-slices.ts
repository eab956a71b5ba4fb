/**
 * Time slices: one huge wallet split into several chains over disjoint creation (payments) or
 * effective (ledger) time ranges, so it no longer pins one request slot for the whole run
 * (a single huge wallet may be split into time slices). Each slice is its own
 * checkpointed chain; the plan is saved with the wallet's stream so a resumed run reuses it.
 *
 * Ranges are half-open [from, to) with `null` for an open end; the API's date filters are inclusive,
 * so a bound `to` is sent as `to − 1 µs` (api/date-bounds.ts `apiDateBounds`). Inner boundaries fall on
 * whole seconds: the slices cover the range exactly, whatever the timestamps' precision.
 */
import type { UtcInstant } from '../model/rows.js';
import { minusOneMicrosecond } from '../api/date-bounds.js';

export interface TimeRange {
  /** inclusive; null = no lower bound */
  from: UtcInstant | null;
  /** exclusive; null = no upper bound */
  to: UtcInstant | null;
}

/** No wallet is cut into more chains than this (each costs at least one request). */
export const MAX_SLICES = 64;

/**
 * `range` cut into `parts` ranges of (about) equal duration that cover it exactly and do not
 * overlap. Open ends stay open on the first and last slice; `span` gives the instants the inner
 * boundaries are spread over when an end is open. Fewer parts come back when the span is too short
 * for whole-second boundaries.
 */
export function splitRange(range: TimeRange, parts: number, span: { from: UtcInstant; to: UtcInstant } = requireBounds(range)): TimeRange[] {
  const count = Math.max(1, Math.min(MAX_SLICES, Math.floor(parts)));
  const startS = Math.ceil(secondsOf(span.from));
  const endS = Math.floor(secondsOf(span.to));
  const boundaries: UtcInstant[] = [];
  for (let k = 1; k < count; k++) {
    const at = startS + Math.floor(((endS - startS) * k) / count);
    const instant = instantOfSeconds(at);
    const previous = boundaries[boundaries.length - 1];
    // boundaries strictly inside the range and strictly increasing
    if ((range.from === null || instant > range.from) && (range.to === null || instant < range.to) && (previous === undefined || instant > previous)) {
      boundaries.push(instant);
    }
  }
  const edges: Array<UtcInstant | null> = [range.from, ...boundaries, range.to];
  return edges.slice(0, -1).map((from, k) => ({ from, to: edges[k + 1] ?? null }));
}

/** The API's inclusive filters for a range. */
export function rangeFilters(range: TimeRange): { startDate?: UtcInstant; endDate?: UtcInstant } {
  return { ...(range.from !== null ? { startDate: range.from } : {}), ...(range.to !== null ? { endDate: minusOneMicrosecond(range.to) } : {}) };
}

/** The first whole second strictly after `instant`. */
export function nextWholeSecond(instant: UtcInstant): UtcInstant {
  return instantOfSeconds(Math.floor(secondsOf(instant)) + 1);
}

function requireBounds(range: TimeRange): { from: UtcInstant; to: UtcInstant } {
  if (range.from === null || range.to === null) throw new TypeError('splitRange: an open range needs an explicit span');
  return { from: range.from, to: range.to };
}

/** Seconds since the epoch, fractional (microseconds kept as a fraction). */
function secondsOf(instant: UtcInstant): number {
  return Date.parse(`${instant.slice(0, 19)}Z`) / 1000 + Number(instant.slice(20, 26)) / 1e6;
}

function instantOfSeconds(seconds: number): UtcInstant {
  return `${new Date(seconds * 1000).toISOString().slice(0, 19)}.000000Z`;
}
