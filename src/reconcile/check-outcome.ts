/**
 * A check's outcome, derived here and nowhere else: the Overview, the terminal summary,
 * exceptions.csv (required-checks.ts) and manifest.json's `checks` all read it from `outcomeOf`, so
 * a check that did not run is never shown as passed by one of them and as not run by another.
 *
 *   passed    it ran and found nothing (a window with nothing to test passes: 0 evaluated)
 *   failed    it found something — its severity says how much that matters: only an error stops
 *             the tie-out, a warning asks for a look, an info finding is a note (tie-out.ts)
 *   not_run   it could not run here, and says why (`skipped_reason`: no summaries pulled, no bill
 *             tied by this window, no wallet balance to compare)
 *
 * A check that found something has run, whatever reason it carries for the rest of its subjects.
 */
import type { CheckOutcome, CheckResult } from '../model/results.js';
import type { CheckDefinition } from './catalogue/check-definition.js';

export function outcomeOf(check: Pick<CheckResult, 'findings' | 'skipped_reason'>): CheckOutcome {
  if (check.findings > 0) return 'failed';
  return check.skipped_reason ? 'not_run' : 'passed';
}

/** One check's result: `passed` is the outcome's, so a check that did not run never reads as passed. */
export function checkResult(check: Pick<CheckDefinition, 'id' | 'description' | 'severity'>, findings: number, evaluated: number, skippedReason: string | null): CheckResult {
  const result = { check_id: check.id, description: check.description, severity: check.severity, findings, evaluated, skipped_reason: skippedReason };
  return { ...result, passed: outcomeOf(result) === 'passed' };
}

export type OutcomeWord = 'PASS' | 'FAIL' | 'WARN' | 'NOTE' | 'NOT RUN';

/** The result word the Overview prints: a failed check by its severity (an info finding is a NOTE, never a failure). */
export function outcomeWord(check: CheckResult): OutcomeWord {
  const outcome = outcomeOf(check);
  if (outcome === 'passed') return 'PASS';
  if (outcome === 'not_run') return 'NOT RUN';
  return check.severity === 'error' ? 'FAIL' : check.severity === 'warning' ? 'WARN' : 'NOTE';
}

/** The checks that did not run, in the order given. */
export function checksNotRun<C extends CheckResult>(checks: readonly C[]): C[] {
  return checks.filter((c) => outcomeOf(c) === 'not_run');
}

/** The manifest's `checks`: each with its outcome spelled out. */
export function withOutcomes(checks: readonly CheckResult[]): Array<CheckResult & { outcome: CheckOutcome }> {
  return checks.map((c) => ({ ...c, outcome: outcomeOf(c) }));
}
