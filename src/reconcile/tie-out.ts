/**
 * "Does it tie?" — one verdict from the check results, shared by the Overview, manifest.json, the
 * terminal summary and the exit code, so they always agree. Only errors stop a tie-out (and make
 * exit 65); warnings ask for a look; info findings are notes and never count as a failure.
 *
 * The one severity vocabulary: error, warning, info.
 */
import type { CheckResult, Severity } from '../model/results.js';

export interface TieOut {
  ties: boolean;
  /** findings per severity */
  errors: number;
  warnings: number;
  info: number;
  /** "Ties out — 0 errors, 2 warnings, 5 info" */
  headline: string;
}

const plural = (n: number, word: string): string => `${n.toLocaleString('en-US')} ${word}${n === 1 || word === 'info' ? '' : 's'}`;

export function tieOut(checks: readonly CheckResult[]): TieOut {
  const sum = (severity: Severity): number => checks.filter((c) => c.severity === severity).reduce((n, c) => n + c.findings, 0);
  const errors = sum('error');
  const warnings = sum('warning');
  const info = sum('info');
  const ties = errors === 0;
  return { ties, errors, warnings, info, headline: `${ties ? 'Ties out' : 'Does not tie'} — ${plural(errors, 'error')}, ${plural(warnings, 'warning')}, ${plural(info, 'info')}` };
}

const SEVERITY_RANK: Readonly<Record<Severity, number>> = { error: 0, warning: 1, info: 2 };

/** The result word of one check: PASS, FAIL (error findings), WARN, NOTE (info: never a failure) or SKIPPED. */
export function checkOutcome(check: CheckResult): 'PASS' | 'FAIL' | 'WARN' | 'NOTE' | 'SKIPPED' {
  if (check.findings === 0) return check.skipped_reason ? 'SKIPPED' : 'PASS';
  return check.severity === 'error' ? 'FAIL' : check.severity === 'warning' ? 'WARN' : 'NOTE';
}

/** Checks by severity (errors first), those with findings first within a severity, else catalogue order. */
export function checksBySeverity(checks: readonly CheckResult[]): CheckResult[] {
  return checks
    .map((c, i) => ({ c, i }))
    .sort((a, b) => SEVERITY_RANK[a.c.severity] - SEVERITY_RANK[b.c.severity] || Number(b.c.findings > 0) - Number(a.c.findings > 0) || a.i - b.i)
    .map((x) => x.c);
}
