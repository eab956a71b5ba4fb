import { columnKinds, columnNames, encodeRow, SQL_TYPE, type ColumnMap } from '../encoding/columns.js';
import type { Queryable, SqlParam } from '../db/db.js';
import { UNNEST_BATCH_ROWS } from './stage.js';

/**
 * Appends rows with batched `unnest` inserts (no upsert): for per-run tables such as summary
 * buckets and findings, whose rows are few and never merged. `fixed` columns take one value for
 * every row (e.g. the run id), passed as parameters after the arrays.
 */
export async function insertRows<R>(
  tx: Queryable,
  table: string,
  map: ColumnMap<R>,
  rows: readonly R[],
  fixed: Readonly<Record<string, SqlParam>>,
): Promise<number> {
  const names = columnNames(map);
  const kinds = columnKinds(map).map(([, kind]) => kind);
  const fixedNames = Object.keys(fixed).map((name) => `"${name}"`);
  const fixedValues = Object.values(fixed);
  const casts = names.map((name, index) => `u.${name}::${SQL_TYPE[kinds[index] ?? 'text']}`);
  const fixedRefs = fixedValues.map((_, index) => `$${names.length + index + 1}`);
  const sql = `INSERT INTO ${table} (${[...names, ...fixedNames].join(', ')})
    SELECT ${[...casts, ...fixedRefs].join(', ')} FROM unnest(${names.map((_, index) => `$${index + 1}::text[]`).join(', ')}) WITH ORDINALITY AS u(${names.join(', ')}, ord)
    ORDER BY u.ord`;
  let inserted = 0;
  for (let start = 0; start < rows.length; start += UNNEST_BATCH_ROWS) {
    const batch = rows.slice(start, start + UNNEST_BATCH_ROWS).map((row) => encodeRow(map, row));
    const params: SqlParam[] = names.map((_, column) => batch.map((fields) => fields[column] ?? null));
    const result = await tx.query(sql, [...params, ...fixedValues]);
    inserted += result.rowCount;
  }
  return inserted;
}
