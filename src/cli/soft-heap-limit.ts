/**
 * A soft limit on the job's JavaScript heap, as Go's GOMEMLIMIT is one on its: below it the heap
 * grows by the usual factor between full collections (heap-growth.ts, 1.5); above it by 1.1, so that
 * collections come sooner and the heap stops growing, paid in collector time only while the heap is
 * that large.
 *
 * Why: at 1M payments the environment stage (the payments of environments read whole, full pages,
 * ~7,000 payments a second) holds a constant 123–125 MB of live objects, yet the heap the collector
 * keeps around them drifted from ~200 to 280 MB and the run's RSS from 300 to 419 MB — target 5 of
 * issue 29. A tighter factor for the whole run cost up to 20 % of the pull's speed at every size;
 * above a limit only, it costs where the memory is (docs/benchmarks.md, "Issue 29: target 5, fifth
 * round").
 */
import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { HEAP_GROWING_PERCENT, userChoseHeapGrowth } from './heap-growth.js';

/** The heap (every space, committed) above which collections leave little headroom. */
export const SOFT_HEAP_LIMIT_MB = 192;
/** The growth factor above the limit, in percent past what survived the last full collection. */
export const TIGHT_HEAP_GROWING_PERCENT = 10;
/** The heap falls this far below the limit before the usual factor is back (no flapping at the edge). */
const RELAX_BELOW = 0.85;
const CHECK_EVERY_MS = 250;

export interface SoftHeapLimitOptions {
  limitBytes?: number;
  /** the heap's committed bytes now */
  heapBytes?: () => number;
  /** sets a V8 flag (node:v8 setFlagsFromString) */
  setFlag?: (flag: string) => void;
  /** starts the periodic check and returns its stop */
  every?: (ms: number, check: () => void) => () => void;
}

/**
 * Starts the check (an unreferenced timer: it never keeps the process alive) and returns its stop.
 * Not started when the user's own node flags name the growth factor: their choice stands.
 */
export function startSoftHeapLimit(execArgv: readonly string[] = process.execArgv, options: SoftHeapLimitOptions = {}): (() => void) | null {
  if (userChoseHeapGrowth(execArgv)) return null;
  const limit = options.limitBytes ?? SOFT_HEAP_LIMIT_MB * 1024 * 1024;
  const heapBytes = options.heapBytes ?? (() => getHeapStatistics().total_heap_size);
  const setFlag = options.setFlag ?? setFlagsFromString;
  const every = options.every ?? unrefInterval;
  let tight = false;
  return every(CHECK_EVERY_MS, () => {
    const heap = heapBytes();
    if (!tight && heap > limit) {
      tight = true;
      setFlag(`--heap-growing-percent=${TIGHT_HEAP_GROWING_PERCENT}`);
    } else if (tight && heap < limit * RELAX_BELOW) {
      tight = false;
      setFlag(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
    }
  });
}

function unrefInterval(ms: number, check: () => void): () => void {
  const timer = setInterval(check, ms);
  timer.unref();
  return () => clearInterval(timer);
}
