/**
 * "Does it tie?" — one verdict from the check results, shared by the Overview, manifest.json, the
 * terminal summary and the exit code, so they always agree. Only errors stop a tie-out (and make
 * exit 65); warnings ask for a look; info findings are notes and never count as a failure.
 *
 * A check that did not run is not a failure and not a pass: the headline names it (check-outcome.ts).
 *
 * The one severity vocabulary: error, warning, info.
 */
import type { CheckOutcome, CheckResult, Severity } from '../model/results.js';
import { checksNotRun, outcomeOf } from './check-outcome.js';

export interface TieOut {
  ties: boolean;
  /** findings per severity */
  errors: number;
  warnings: number;
  info: number;
  /** the ids of the checks that did not run, in the order given */
  notRun: string[];
  /** "Ties out — 0 errors, 2 warnings, 5 info", then "; 2 checks not run: a, b" when some did not run */
  headline: string;
  /** the headline for a reader who does not know check ids (the Overview): "…; 2 checks could not run" */
  wordsHeadline: string;
}

/** how many not-run checks the headline names before "and N more" (the Overview and the terminal list them all) */
const NAMED = 2;

const plural = (n: number, word: string): string => `${n.toLocaleString('en-US')} ${word}${n === 1 || word === 'info' ? '' : 's'}`;

export function tieOut(checks: readonly CheckResult[]): TieOut {
  const sum = (severity: Severity): number => checks.filter((c) => c.severity === severity).reduce((n, c) => n + c.findings, 0);
  const errors = sum('error');
  const warnings = sum('warning');
  const info = sum('info');
  const ties = errors === 0;
  const notRun = checksNotRun(checks).map((c) => c.check_id);
  const counts = `${ties ? 'Ties out' : 'Does not tie'} — ${plural(errors, 'error')}, ${plural(warnings, 'warning')}, ${plural(info, 'info')}`;
  const headline = notRun.length === 0 ? counts : `${counts}; ${plural(notRun.length, 'check')} not run: ${named(notRun)}`;
  const wordsHeadline = notRun.length === 0 ? counts : `${counts}; ${plural(notRun.length, 'check')} could not run`;
  return { ties, errors, warnings, info, notRun, headline, wordsHeadline };
}

function named(ids: readonly string[]): string {
  const more = ids.length - NAMED;
  return more <= 0 ? ids.join(', ') : `${ids.slice(0, NAMED).join(', ')} and ${more.toLocaleString('en-US')} more`;
}

const SEVERITY_RANK: Readonly<Record<Severity, number>> = { error: 0, warning: 1, info: 2 };

/** within a severity: those with findings, then those that did not run, then those that passed */
const OUTCOME_RANK: Readonly<Record<CheckOutcome, number>> = { failed: 0, not_run: 1, passed: 2 };

/** Checks by severity (errors first); within a severity those with findings, then those not run, then the rest, each in catalogue order. */
export function checksBySeverity(checks: readonly CheckResult[]): CheckResult[] {
  return checks
    .map((c, i) => ({ c, i, rank: OUTCOME_RANK[outcomeOf(c)] }))
    .sort((a, b) => SEVERITY_RANK[a.c.severity] - SEVERITY_RANK[b.c.severity] || a.rank - b.rank || a.i - b.i)
    .map((x) => x.c);
}
