/** summary-check.csv / sheet "Summary check": API summary count vs count of listed payments. */
import type { SummaryCheckRow } from '../../model/results.js';
import { fieldColumns, type TableSpec } from '../../model/column-spec.js';

const field = fieldColumns<SummaryCheckRow>();
export const SUMMARY_CHECK_TABLE: TableSpec<SummaryCheckRow> = {
  id: 'summary-check',
  file: 'summary-check.csv',
  sheet: 'Summary check',
  rowIs: 'summary bucket: API count vs computed count',
  // printed one page across (docs/reports.md#printing-8-pt-or-more-on-a4-and-letter): which bucket, both counts and whether they agree
  printColumns: ['scope_id', 'direction', 'status', 'kind', 'api_count', 'computed_count', 'difference', 'ok'],
  columns: [
    field.code('scope', 'environment, line_of_credit or wallet'),
    field.id('scope_id', 'UUID of the scope'),
    field.id('environment_id', 'environment UUID'),
    field.code('direction', 'bucket direction (empty on a scope total)'),
    field.code('status', 'bucket status (empty on a scope total)'),
    field.code('currency', 'bucket currency (empty on a scope total)'),
    field.code('kind', 'bucket kind (empty on a scope total)'),
    field.count('api_count', 'count the summary endpoint reports (empty = not available)'),
    field.count('computed_count', 'count of listed payments in the bucket'),
    field.count('difference', 'api_count − computed_count'),
    field.bool('ok', 'true when the counts agree'),
  ],
};
