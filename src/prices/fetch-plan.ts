/**
 * The fetch planner (pure): which buckets a window needs, which the cache already holds, which it
 * must not touch, and the requests for the rest.
 *
 * A window [from, to] needs a close at every interval boundary in it: the close stamped `from`
 * prices a movement at `from`, the one stamped `to` values the period's end. Left out, each listed:
 *   - closes after `now`: the bucket has not finished (an unfinished candle is not a close);
 *   - closes at or before the closed-through mark: a closed period's prices stay as they were;
 *   - buckets older than the source's documented history: asking would only fail.
 * Requests cover at most the source's maximum of buckets each; buckets already cached inside a
 * request are read again but never rewritten.
 */
import { INTERVAL_SECONDS, secondsToText, type PriceInterval } from './interval.js';
import type { CachedPrices } from './cache-file.js';

export interface PlanInput {
  /** Unix seconds, inclusive both ends: closes wanted in [fromSec, toSec] */
  fromSec: number;
  toSec: number;
  interval: PriceInterval;
  nowSec: number;
  closedThroughSec: number | null;
  historyStartSec: number | null;
  cached: CachedPrices;
  maxBuckets: number;
}

export interface FetchPlan {
  /** bucket starts the window needs (finished buckets only) */
  wanted: number[];
  /** of those, already in the cache */
  cached: number;
  /** missing, but at or before the closed-through mark: never fetched */
  closed: number[];
  /** missing, older than the source serves */
  beyondHistory: number[];
  /** closes after `now` (not yet known) */
  unfinished: number;
  /** the requests: bucket starts in [startSec, endSec) */
  chunks: Array<{ startSec: number; endSec: number; buckets: number[] }>;
}

export function planFetch(input: PlanInput): FetchPlan {
  const length = INTERVAL_SECONDS[input.interval];
  const firstClose = Math.ceil(input.fromSec / length) * length;
  const lastClose = Math.floor(input.toSec / length) * length;
  const plan: FetchPlan = { wanted: [], cached: 0, closed: [], beyondHistory: [], unfinished: 0, chunks: [] };
  const missing: number[] = [];
  for (let close = firstClose; close <= lastClose; close += length) {
    if (close > input.nowSec) {
      plan.unfinished++;
      continue;
    }
    const start = close - length;
    plan.wanted.push(start);
    if (input.cached.has(start)) plan.cached++;
    else if (input.closedThroughSec !== null && close <= input.closedThroughSec) plan.closed.push(start);
    else if (input.historyStartSec !== null && start < input.historyStartSec) plan.beyondHistory.push(start);
    else missing.push(start);
  }
  for (const start of missing) {
    const chunk = plan.chunks[plan.chunks.length - 1];
    if (chunk !== undefined && (start - chunk.startSec) / length < input.maxBuckets) {
      chunk.endSec = start + length;
      chunk.buckets.push(start);
    } else {
      plan.chunks.push({ startSec: start, endSec: start + length, buckets: [start] });
    }
  }
  return plan;
}

/** Bucket starts → runs `from..to (n × 1h)`, UTC, for a one-line summary and the findings. */
export function describeRuns(starts: readonly number[], interval: PriceInterval, limit = 5): string {
  const length = INTERVAL_SECONDS[interval];
  const sorted = [...starts].sort((a, b) => a - b);
  const runs: Array<[number, number]> = [];
  for (const s of sorted) {
    const last = runs[runs.length - 1];
    if (last !== undefined && s === last[1] + length) last[1] = s;
    else runs.push([s, s]);
  }
  const shown = runs.slice(0, limit).map(([a, b]) => `${secondsToText(a)}..${secondsToText(b + length)} (${(b - a) / length + 1} × ${interval})`);
  return runs.length > limit ? `${shown.join(', ')} and ${runs.length - limit} more run(s)` : shown.join(', ');
}
