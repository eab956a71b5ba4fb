/**
 * "Ties out" and "close status" as a message states them, derived from what the run itself knows
 * (its findings and whether it closed the period), so every channel says the same as the exit code.
 * Ties out = no error-severity finding: exactly the condition under which the report stage exits 0
 * (findings.ts `hasErrors`); warnings and notes do not stop the books from tying.
 */
import type { Finding } from '../model/results.js';

/** the rows exceptions.csv gives a check that did not run */
const NOT_RUN_ROWS: ReadonlySet<string> = new Set(['check.not_run', 'close.required_check_not_run']);

export type CloseStatus = 'closed' | 'already-closed' | 'not-closed' | 'not-applicable' | 'unknown';

export interface RunVerdict {
  /** null: the run ended before a report (nothing to tie) */
  tiesOut: boolean | null;
  tieOutLine: string;
  closeStatus: CloseStatus;
  closeLine: string;
}

export interface VerdictInput {
  job: string;
  /** the report's findings; null when no report was published */
  findings: readonly Finding[] | null;
  /** month-end: the period was closed before this run (the report is an amendment) */
  closedBefore: boolean;
  /** month-end: why the period was not closed (open items), or null */
  notClosed: string | null;
  /** the run completed without a report of its own (a shard's pull: `payexport report` builds it) */
  pullOnly?: boolean;
}

export function runVerdict(input: VerdictInput): RunVerdict {
  if (input.findings === null && input.pullOnly === true) {
    return { tiesOut: null, tieOutLine: 'no report: this run only pulled (a shard); `payexport report` builds and ties the books', closeStatus: 'not-applicable', closeLine: 'not applicable (a shard does not close a period)' };
  }
  if (input.findings === null) {
    return {
      tiesOut: null,
      tieOutLine: 'no report: the run ended before the books could be tied',
      closeStatus: input.job === 'month-end' ? 'unknown' : 'not-applicable',
      closeLine: input.job === 'month-end' ? 'not closed: the run did not finish' : 'not applicable (only month-end closes a period)',
    };
  }
  const errors = input.findings.filter((f) => f.severity === 'error').length;
  const tiesOut = errors === 0;
  // a check that did not run is one row of exceptions.csv (reconcile/required-checks.ts): never "every check passed"
  const notRun = input.findings.filter((f) => NOT_RUN_ROWS.has(f.check_id)).length;
  const notRunWords = notRun === 0 ? '' : `; ${notRun} check(s) not run, see exceptions.csv`;
  const tieOutLine = tiesOut ? (notRun === 0 ? 'ties out: every reconciliation check passed without an error' : `ties out: no reconciliation error${notRunWords}`) : `does NOT tie: ${errors} reconciliation error(s), see exceptions.csv${notRunWords}`;
  if (input.job !== 'month-end') return { tiesOut, tieOutLine, closeStatus: 'not-applicable', closeLine: 'not applicable (only month-end closes a period)' };
  if (input.notClosed !== null) return { tiesOut, tieOutLine, closeStatus: 'not-closed', closeLine: `NOT closed: ${input.notClosed}` };
  if (input.closedBefore) return { tiesOut, tieOutLine, closeStatus: 'already-closed', closeLine: 'already closed: this report is an amendment beside the closed one' };
  return { tiesOut, tieOutLine, closeStatus: 'closed', closeLine: 'closed' };
}
