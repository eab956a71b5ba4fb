/**
 * The journal's findings and check outcomes folded into the reconciliation result, so they land
 * in exceptions.csv, the Overview and the manifest like every other check (and exit 65 on an
 * error). Without a journal mapping the result is left as it is: no journal checks are listed.
 */
import { JOURNAL_CHECKS } from '../reconcile/catalogue/journal.js';
import { checkResult } from '../reconcile/check-outcome.js';
import { compareFindings } from '../reconcile/findings.js';
import type { CheckResult, ReconcileResult } from '../model/results.js';
import type { JournalStageResult } from './journal-stage.js';

/** The auto-fetch's checks (docs/prices.md#auto-fetch) are listed only in a run that fetched. */
const AUTO_FETCH_CHECKS: ReadonlySet<string> = new Set(['journal.price_fetch_failed', 'journal.price_gap']);

export function mergeJournalResult(result: ReconcileResult, journal: JournalStageResult | null): ReconcileResult {
  if (journal === null) return result;
  const findings = [...result.findings, ...journal.findings].sort(compareFindings);
  const checks: CheckResult[] = JOURNAL_CHECKS.filter((check) => !AUTO_FETCH_CHECKS.has(check.id) || journal.evaluated[check.id] !== undefined).map((check) => {
    const count = journal.findings.filter((f) => f.check_id === check.id).length;
    return checkResult(check, count, journal.evaluated[check.id] ?? 0, null);
  });
  return { ...result, findings, checks: [...result.checks, ...checks] };
}
