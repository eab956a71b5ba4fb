/**
 * The journal's findings and check outcomes folded into the reconciliation result, so they land
 * in exceptions.csv, the Overview and the manifest like every other check (and exit 65 on an error).
 */
import { compareFindings } from '../reconcile/findings.js';
import type { ReconcileResult } from '../reconcile/results.js';
import type { JournalStageResult } from './journal-stage.js';

export const NO_JOURNAL_REASON = 'no journal mapping in the config';

export function mergeJournalResult(result: ReconcileResult, journal: JournalStageResult | null): ReconcileResult {
  const findings = journal === null ? result.findings : [...result.findings, ...journal.findings].sort(compareFindings);
  const checks = result.checks.map((check) => {
    if (!check.check_id.startsWith('journal.')) return check;
    if (journal === null) return { ...check, skipped_reason: NO_JOURNAL_REASON };
    const count = journal.findings.filter((f) => f.check_id === check.check_id).length;
    return { ...check, findings: count, passed: count === 0, evaluated: journal.evaluated[check.check_id] ?? 0, skipped_reason: null };
  });
  return { ...result, findings, checks };
}
