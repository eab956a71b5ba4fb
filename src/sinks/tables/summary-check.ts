/** summary-check.csv / sheet "Summary check": API summary count vs count of listed payments. */
import type { SummaryCheckRow } from '../../model/results.js';
import { bool, code, count, id, type TableSpec } from '../column-spec.js';

export const SUMMARY_CHECK_TABLE: TableSpec<SummaryCheckRow> = {
  id: 'summary-check',
  file: 'summary-check.csv',
  sheet: 'Summary check',
  rowIs: 'summary bucket: API count vs computed count',
  columns: [
    code('scope', 'environment, line_of_credit or wallet', (r) => r.scope),
    id('scope_id', 'UUID of the scope', (r) => r.scope_id),
    id('environment_id', 'environment UUID', (r) => r.environment_id),
    code('direction', 'bucket direction (empty on a scope total)', (r) => r.direction),
    code('status', 'bucket status (empty on a scope total)', (r) => r.status),
    code('currency', 'bucket currency (empty on a scope total)', (r) => r.currency),
    code('kind', 'bucket kind (empty on a scope total)', (r) => r.kind),
    count('api_count', 'count the summary endpoint reports (empty = not available)', (r) => r.api_count),
    count('computed_count', 'count of listed payments in the bucket', (r) => r.computed_count),
    count('difference', 'api_count − computed_count', (r) => r.difference),
    bool('ok', 'true when the counts agree', (r) => r.ok),
  ],
};
