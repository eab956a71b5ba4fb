/**
 * exceptions.csv / sheet "Exceptions": one row per finding of a reconciliation check, and one per
 * check that did not run (check.not_run or close.required_check_not_run, subject_kind `check`,
 * subject_id the check, the reason in message: reconcile/required-checks.ts). A row, not a column:
 * a reader filtering this file for what needs attention sees them beside the findings.
 */
import type { Finding } from '../../model/results.js';
import { fieldColumns, type TableSpec } from '../../model/column-spec.js';

const field = fieldColumns<Finding>();
export const EXCEPTIONS_TABLE: TableSpec<Finding> = {
  id: 'exceptions',
  file: 'exceptions.csv',
  sheet: 'Exceptions',
  rowIs: 'finding of a reconciliation check, or per check that did not run (check.not_run, close.required_check_not_run: subject_id names the check, message the reason)',
  // printed one page across (docs/reports.md#printing-8-pt-or-more-on-a4-and-letter): what was found, how bad, where and what it says
  printColumns: ['check_id', 'severity', 'subject_id', 'message'],
  columns: [
    field.code('check_id', 'the check that found it (see the Overview)'),
    field.code('severity', 'error, warning or info'),
    field.code('subject_kind', 'payment, ledger_entry, wallet, summary_bucket, environment, run, bill, bill_line_item, or check (a check that did not run: subject_id names it)'),
    field.id('subject_id', 'id of the subject'),
    field.id('wallet_id', 'wallet UUID, when the finding concerns one wallet'),
    field.code('currency', 'currency of the figures, when they are amounts'),
    field.decimal('expected', 'expected figure (base units or a count)'),
    field.decimal('actual', 'actual figure (base units or a count)'),
    field.decimal('difference', 'actual − expected'),
    field.text('message', 'what is wrong, in words', 60),
  ],
};
