/** exceptions.csv / sheet "Exceptions": one row per finding of a reconciliation check. */
import type { Finding } from '../../model/results.js';
import { fieldColumns, type TableSpec } from '../../model/column-spec.js';

const field = fieldColumns<Finding>();
export const EXCEPTIONS_TABLE: TableSpec<Finding> = {
  id: 'exceptions',
  file: 'exceptions.csv',
  sheet: 'Exceptions',
  rowIs: 'finding of a reconciliation check',
  columns: [
    field.code('check_id', 'the check that found it (see the Overview)'),
    field.code('severity', 'error, warning or info'),
    field.code('subject_kind', 'payment, ledger_entry, wallet, summary_bucket, environment or run'),
    field.id('subject_id', 'id of the subject'),
    field.id('wallet_id', 'wallet UUID, when the finding concerns one wallet'),
    field.code('currency', 'currency of the figures, when they are amounts'),
    field.decimal('expected', 'expected figure (base units or a count)'),
    field.decimal('actual', 'actual figure (base units or a count)'),
    field.decimal('difference', 'actual − expected'),
    field.text('message', 'what is wrong, in words', 60),
  ],
};
