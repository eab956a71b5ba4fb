/** exceptions.csv / sheet "Exceptions": one row per finding of a reconciliation check. */
import type { Finding } from '../../model/results.js';
import { code, decimal, id, text, type TableSpec } from '../column-spec.js';

export const EXCEPTIONS_TABLE: TableSpec<Finding> = {
  id: 'exceptions',
  file: 'exceptions.csv',
  sheet: 'Exceptions',
  rowIs: 'finding of a reconciliation check',
  columns: [
    code('check_id', 'the check that found it (see the Overview)', (r) => r.check_id),
    code('severity', 'error, warning or info', (r) => r.severity),
    code('subject_kind', 'payment, ledger_entry, wallet, summary_bucket, environment or run', (r) => r.subject_kind),
    id('subject_id', 'id of the subject', (r) => r.subject_id),
    id('wallet_id', 'wallet UUID, when the finding concerns one wallet', (r) => r.wallet_id),
    code('currency', 'currency of the figures, when they are amounts', (r) => r.currency),
    decimal('expected', 'expected figure (base units or a count)', (r) => r.expected),
    decimal('actual', 'actual figure (base units or a count)', (r) => r.actual),
    decimal('difference', 'actual − expected', (r) => r.difference),
    text('message', 'what is wrong, in words', (r) => r.message, 60),
  ],
};
