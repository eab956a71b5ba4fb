/**
 * The planner's statistics of a few tables, refreshed before the queries that depend on them. The
 * embedded engine has no autovacuum, so its statistics stay as they were when a table was created
 * (empty) however many rows later runs wrote; a Postgres server refreshes them only when its
 * autovacuum gets round to it. Without them the exported journal's lookup (an `= ANY(array)` of
 * entry numbers joined to their lines) is planned as a nested loop that rescans the array for
 * every line, thousands of times slower on the same rows
 * (docs/benchmarks.md#the-figures-behind-the-codes-choices).
 */
import type { Queryable } from '../db/db.js';

/** `ANALYZE` of these tables (already quoted and schema-qualified): a sample of each, milliseconds */
export async function refreshStatistics(db: Queryable, tables: readonly string[]): Promise<void> {
  if (tables.length > 0) await db.query(`ANALYZE ${tables.join(', ')}`);
}
