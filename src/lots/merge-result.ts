/**
 * The subledger's findings and check outcomes folded into the reconciliation result, so they land
 * in exceptions.csv, the Overview and the manifest like every other check (exit 65 on an error).
 */
import { LOTS_CHECKS } from '../reconcile/catalogue/lots.js';
import { TAX_CHECKS } from '../reconcile/catalogue/tax.js';
import { checkResult } from '../reconcile/check-outcome.js';
import { compareFindings } from '../reconcile/findings.js';
import type { CheckResult, ReconcileResult } from '../model/results.js';
import type { LotsStageResult } from './lots-stage.js';

export function mergeLotsResult(result: ReconcileResult, lots: LotsStageResult | null): ReconcileResult {
  if (lots === null) return result;
  const findings = [...result.findings, ...lots.findings].sort(compareFindings);
  // the tax checks are listed when they ran: the US tax files on, and a Form 1099-DA file for the 1099-DA ones
  // (as the lots checks are listed only with a lots section) — never shown as passed when they did not
  const ran = TAX_CHECKS.filter((check) => lots.taxSkipped?.[check.id] === undefined);
  const checks: CheckResult[] = [...LOTS_CHECKS, ...ran].map((check) => {
    const count = lots.findings.filter((f) => f.check_id === check.id).length;
    return checkResult(check, count, lots.evaluated[check.id] ?? 0, null);
  });
  return { ...result, findings, checks: [...result.checks, ...checks] };
}
