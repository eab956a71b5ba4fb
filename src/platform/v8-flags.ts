/**
 * The V8 flags the CLI sets for its own process, once, at start-up (start-up.ts): a library that
 * imports payexport's modules gets none of them. A user's own node flag naming the same setting
 * stands (`node --heap-growing-percent=… payexport …`; node refuses V8 flags in NODE_OPTIONS, so
 * execArgv is where a choice shows).
 *
 * The heap's growth between full collections: V8 lets the heap grow by up to four times what
 * survived the last collection when collections are cheap. An export's live objects are small (a
 * page, a wallet) and the rest is garbage, so that headroom was most of the job's peak memory; a
 * tighter factor keeps the peak near what the job holds, paid in more (short, concurrent)
 * collections. V8 reads the factor each time it sets the next collection's limit, so setting it
 * before the first command runs is in time. What it buys is measured in docs/benchmarks.md
 * ("Process-wide settings").
 */

/** How far the heap may grow past what survived the last full collection, in percent. */
export const HEAP_GROWING_PERCENT = 50;

interface V8Setting {
  flag: string;
  /** the user's own node flags name this setting */
  chosen: RegExp;
}

export const V8_SETTINGS: readonly V8Setting[] = [{ flag: `--heap-growing-percent=${HEAP_GROWING_PERCENT}`, chosen: /heap[-_]growing[-_]percent/ }];

/** The flags to set for a process started with these node flags: each setting the user left to us. */
export function v8FlagsFor(execArgv: readonly string[]): string[] {
  return V8_SETTINGS.filter((s) => !execArgv.some((arg) => s.chosen.test(arg))).map((s) => s.flag);
}
