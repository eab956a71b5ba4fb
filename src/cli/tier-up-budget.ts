/**
 * How much bytecode a function runs before V8 weighs optimizing it: eight times V8's default.
 *
 * Why: an export is a batch run whose hot loops run millions of times, but V8's default budget is
 * tuned for pages that must get fast within seconds: it sent ~1,200 functions of a 50k-payment
 * export to TurboFan, most of them lukewarm (a column's getter, a command's setup), and those
 * compiles were ~2.5 s of CPU on V8's worker threads in a run of ~18 s. With eight times the
 * budget the hot loops are still optimized, within their first few thousand rows, and the lukewarm
 * functions stay in the interpreter. Alternating pairs at 50k (docs/benchmarks.md, "Issue 41: fifth
 * round"): V8's other threads −1.3 to −2.6 s, the main thread +0 to +0.8 s (code interpreted a
 * little longer), the job's CPU lower in every pair.
 *
 * A user's own `node --interrupt-budget=…` stands. V8 reads the budget when a function's feedback
 * is set up, so the flag is set by the first module the entry point imports (tier-up-first.ts),
 * before any other module of the program has run.
 */
import { setFlagsFromString } from 'node:v8';

/** V8 11's default (66 KB of bytecode) times eight */
export const INTERRUPT_BUDGET = 8 * 67_584;

export function raiseTierUpBudget(execArgv: readonly string[] = process.execArgv, setFlag: (flag: string) => void = setFlagsFromString): boolean {
  if (userChoseTierUpBudget(execArgv)) return false;
  setFlag(`--interrupt-budget=${INTERRUPT_BUDGET}`);
  return true;
}

/** `--interrupt-budget=N` (or with underscores) among the node flags; V8's other `--interrupt-budget-…` flags are not this one. */
export function userChoseTierUpBudget(execArgv: readonly string[]): boolean {
  return execArgv.some((flag) => /^--interrupt[-_]budget(=|$)/.test(flag));
}
