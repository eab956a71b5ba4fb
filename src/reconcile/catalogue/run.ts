/**
 * The checks about the run's own checks: which did not run (check-outcome.ts), and a month closed
 * without a required one (required-checks.ts). Part of the catalogue (../catalogue.ts), listed last.
 */
import type { CheckDefinition } from './check-definition.js';

export const RUN_CHECKS = [
  {
    id: 'check.not_run',
    severity: 'info',
    subject_kind: 'check',
    description: 'Every check listed ran',
    rule:
      'A check listed on the Overview that could not run here (no payment summaries pulled, no bill tied by this window, no wallet balance to compare with the API) is one row, ' +
      'subject_id = the check, with the reason: never shown as passed. A month-end reports a required check this way as close.required_check_not_run instead.',
  },
  {
    id: 'close.required_check_not_run',
    severity: 'warning',
    subject_kind: 'check',
    description: 'A month is closed with every required check run',
    rule:
      'A month-end whose required check (the ledger and balance tie-outs, the summary and bill tie-outs, the journal and lots tie-outs when configured: docs/reconciliation.md#required-checks) ' +
      'did not run is one warning per such check, subject_id = the check, with the reason. The month still closes; a re-run once the check can run amends it if the files differ.',
  },
] as const satisfies readonly CheckDefinition[];
