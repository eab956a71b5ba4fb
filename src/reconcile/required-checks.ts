/**
 * The checks a month must have run to be closed without a word (docs/reconciliation.md#required-checks),
 * and the rows exceptions.csv gives the checks that did not run: one per check, subject_id = the
 * check, with the reason, so a reader filtering exceptions.csv sees them beside the findings.
 *
 * A check that did not run is an info row (`check.not_run`). In a run that closes its month (a
 * month-end, or a rebuild of a closed month: the Overview depends on what the snapshot records,
 * never on the command — close-status.ts) a required one is a warning instead
 * (`close.required_check_not_run`). A warning, not an error: the month still closes (the bill of a
 * month is issued after it; a close cannot wait for what may never come), and says so.
 */
import type { Finding, ReconcileResult } from '../model/results.js';
import { checkDefinition, type CheckId } from './catalogue.js';
import { checkResult, checksNotRun } from './check-outcome.js';
import { compareFindings, finding } from './findings.js';

/** A check here that is not listed (the journal's, the lots' without their configuration) is not required. */
export const REQUIRED_CHECKS: ReadonlySet<string> = new Set<CheckId>([
  // the wallet ledgers against the payments and the service's balances
  'payment.ledger_match',
  'completeness.payment_without_ledger',
  'completeness.ledger_without_payment',
  'balance.rollforward',
  'balance.api_total',
  // the service's own summaries
  'summary.total',
  'summary.bucket',
  // the service's bill of the month, its error-severity ties
  'bill.line_amounts',
  'bill.line_counts',
  'bill.line_processing_fees',
  'bill.starting_balance',
  'bill.line_item_missing',
  'bill.internal_totals',
  // the journal, with a journal mapping
  'journal.wallet_tieout',
  'journal.fee_tieout',
  // the lots, with a lots section
  'lots.units_tieout',
  'lots.cost_tieout',
  'lots.gain_identity',
  'lots.fair_value_tieout',
  'lots.cumulative_tieout',
]);

export interface RunClose {
  /** the run closes its period, or rebuilds a closed one */
  closes: boolean;
  /** the period's label, e.g. 2026-10 */
  period: string;
}

/** `result` with a row per check that did not run, and the two run checks listed (the close's only when it closes). */
export function withChecksNotRun(result: ReconcileResult, run: RunClose): ReconcileResult {
  const rows: Finding[] = checksNotRun(result.checks).map((c) => {
    const required = run.closes && REQUIRED_CHECKS.has(c.check_id);
    const reason = c.skipped_reason ?? '';
    return finding(required ? 'close.required_check_not_run' : 'check.not_run', {
      subject_kind: 'check',
      subject_id: c.check_id,
      wallet_id: null,
      message: required
        ? `not run: ${reason}. ${c.check_id} is required to close ${run.period}: a warning, not an error — it does not keep the period open; a re-run once the check can run amends a closed period if the files differ`
        : `not run: ${reason}`,
    });
  });
  const count = (id: CheckId): number => rows.filter((f) => f.check_id === id).length;
  const listed = result.checks.length;
  const required = result.checks.filter((c) => REQUIRED_CHECKS.has(c.check_id)).length;
  const checks = [
    checkResult(checkDefinition('check.not_run'), count('check.not_run'), listed, null),
    ...(run.closes ? [checkResult(checkDefinition('close.required_check_not_run'), count('close.required_check_not_run'), required, null)] : []),
  ];
  return { ...result, findings: [...result.findings, ...rows].sort(compareFindings), checks: [...result.checks, ...checks] };
}
