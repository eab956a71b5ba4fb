import { copyLine } from './copy-text.js';
import { columnNames, encodeRow, SQL_TYPE, type ColumnKind } from './columns.js';
import type { Queryable } from './db.js';
import { quoteIdent } from './schema.js';
import type { TableSpec } from './tables.js';

/**
 * Rows reach a table through a session-local staging table: COPY (or, without COPY, batched
 * `unnest` inserts) into `pg_temp`, then one set-based upsert from it (merge-sql.ts). Temporary
 * tables write no WAL; `ON COMMIT DELETE ROWS` empties it at the end of every transaction.
 */

/** Rows per `unnest` statement on engines without COPY (deps-probe §2: 1000 beats 5000). */
export const UNNEST_BATCH_ROWS = 1000;

export function stageTable(spec: { readonly table: string }): string {
  return `pg_temp.${quoteIdent(`payexport_stage_${spec.table}`)}`;
}

function stageDdl<R>(spec: TableSpec<R>): string {
  const columns = Object.entries<ColumnKind>(spec.columns).map(([name, kind]) => `${quoteIdent(name)} ${SQL_TYPE[kind]}`);
  return `CREATE TEMP TABLE IF NOT EXISTS ${quoteIdent(`payexport_stage_${spec.table}`)} (${columns.join(', ')}) ON COMMIT DELETE ROWS`;
}

/** Keeps one row per key: the newest by the spec's version (ties: the later one), else the later one. */
export function dedupeByKey<R>(spec: TableSpec<R>, rows: readonly R[]): R[] {
  const byKey = new Map<string, R>();
  for (const row of rows) {
    const record = row as Record<string, unknown>;
    const key = JSON.stringify(spec.key.map((field) => record[field]));
    const existing = byKey.get(key);
    if (existing !== undefined && spec.version !== undefined) {
      const before = (existing as Record<string, unknown>)[spec.version] as string;
      const after = record[spec.version] as string;
      // Canonical UtcInstants sort lexicographically in time order.
      if (after < before) continue;
    }
    byKey.set(key, row);
  }
  return [...byKey.values()];
}

/** Loads `rows` into the spec's staging table, inside the caller's transaction. */
export async function stageRows<R>(tx: Queryable, spec: TableSpec<R>, rows: readonly R[]): Promise<void> {
  await tx.query(stageDdl(spec));
  if (rows.length === 0) return;
  const target = stageTable(spec);
  const names = columnNames(spec.columns);
  if (tx.copyFrom) {
    let text = '';
    for (const row of rows) text += copyLine(encodeRow(spec.columns, row));
    await tx.copyFrom(target, names, text);
    return;
  }
  const kinds = Object.values<ColumnKind>(spec.columns);
  const casts = names.map((name, index) => `u.${name}::${SQL_TYPE[kinds[index] ?? 'text']}`);
  const sql = `INSERT INTO ${target} (${names.join(', ')}) SELECT ${casts.join(', ')} FROM unnest(${names.map((_, index) => `$${index + 1}::text[]`).join(', ')}) AS u(${names.join(', ')})`;
  for (let start = 0; start < rows.length; start += UNNEST_BATCH_ROWS) {
    const batch = rows.slice(start, start + UNNEST_BATCH_ROWS).map((row) => encodeRow(spec.columns, row));
    const params = names.map((_, column) => batch.map((fields) => fields[column] ?? null));
    await tx.query(sql, params);
  }
}
