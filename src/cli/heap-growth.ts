/**
 * How far the job's heap may grow past what survived the last full collection before the next one.
 * V8 picks a factor of up to 4 when collections are cheap, so a job whose live objects are ~60 MB
 * (an `export --no-db` of 100k payments, after the pull and report keep only pages and one wallet)
 * let its heap reach 200+ MB of mostly garbage: half of its peak RSS. 1.5 keeps the peak near
 * what the job holds, at the cost of more (concurrent, short) collections; docs/benchmarks.md
 * "Issue 29: the memory of the largest page" measured both.
 */
import { setFlagsFromString } from 'node:v8';

export const HEAP_GROWING_PERCENT = 50;

/**
 * Sets V8's heap growing factor for this process, unless the user's own node flags already name it
 * (`node --heap-growing-percent=… payexport …`; node refuses it in NODE_OPTIONS): theirs stand. V8
 * reads the factor each time it sets the next collection's limit, so setting it at startup is in time.
 */
export function boundHeapGrowth(execArgv: readonly string[] = process.execArgv): boolean {
  if (userChoseHeapGrowth(execArgv)) return false;
  setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
  return true;
}

/** Whether the user's own node flags name the growth factor (theirs then stands, here and in soft-heap-limit.ts). */
export function userChoseHeapGrowth(execArgv: readonly string[]): boolean {
  return execArgv.some((flag) => /heap[-_]growing[-_]percent/.test(flag));
}
