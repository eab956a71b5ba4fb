import { createHash } from 'node:crypto';
import { copyLine } from './copy-text.js';
import { encodeRow, SQL_TYPE, type ColumnKind } from './columns.js';
import type { Queryable } from './db.js';
import { quoteIdent } from './schema.js';
import type { TableSpec } from './tables.js';

/**
 * Rows as stored (the row's columns, plus `row_hash` on hashed tables), encoded once to their
 * PostgreSQL input text, and the session-local staging tables they pass through on the way to an
 * upsert: COPY (or, without COPY, batched `unnest` inserts) into `pg_temp`, then one set-based
 * statement from it (merge-sql.ts). Temporary tables write no WAL; `ON COMMIT DELETE ROWS`
 * empties them at the end of every transaction.
 */

/** Rows per `unnest` statement on engines without COPY (deps-probe §2: 1000 beats 5000). */
export const UNNEST_BATCH_ROWS = 1000;

/** Rows per COPY chunk: small enough that encoding the next overlaps the server parsing this one. */
const COPY_CHUNK_ROWS = 100;

export const ROW_HASH = 'row_hash';

export type EncodedRow = (string | null)[];

/** The stored columns of a spec, in order: its row columns, then `row_hash` when hashed. */
export function storedColumns<R>(spec: TableSpec<R>): readonly (readonly [string, ColumnKind])[] {
  const columns = Object.entries<ColumnKind>(spec.columns);
  return spec.hashed ? [...columns, [ROW_HASH, 'text'] as const] : columns;
}

/** Digest of a row's encoded columns (their exact stored text): equal hashes, equal rows. */
function rowHash(fields: readonly (string | null)[]): string {
  const hash = createHash('sha256');
  // Encoded text never contains U+0000 (text-escape.ts), so it separates fields and marks NULL unambiguously.
  for (const field of fields) hash.update(field === null ? '\u0000N\u0000' : `${field}\u0000`);
  return hash.digest('base64url').slice(0, 32);
}

export function encodeStored<R>(spec: TableSpec<R>, row: R): EncodedRow {
  const fields = encodeRow(spec.columns, row);
  if (spec.hashed) fields.push(rowHash(fields));
  return fields;
}

export function stageTable(spec: { readonly table: string }): string {
  return `pg_temp.${quoteIdent(`payexport_stage_${spec.table}`)}`;
}

function stageDdl<R>(spec: TableSpec<R>): string {
  const columns = storedColumns(spec).map(([name, kind]) => `${quoteIdent(name)} ${SQL_TYPE[kind]}`);
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

/** COPY text of already-encoded rows, lazily in chunks (`extra` fields are appended to every line). */
export function* copyChunks(rows: readonly EncodedRow[], extra: readonly (string | null)[] = []): Generator<string> {
  for (let start = 0; start < rows.length; start += COPY_CHUNK_ROWS) {
    let chunk = '';
    const end = Math.min(rows.length, start + COPY_CHUNK_ROWS);
    for (let index = start; index < end; index++) {
      const fields = rows[index] ?? [];
      chunk += copyLine(extra.length === 0 ? fields : [...fields, ...extra]);
    }
    yield chunk;
  }
}

/** Rows encoded lazily, chunk by chunk, so encoding overlaps the server's work. */
function* encodeChunks<R>(spec: TableSpec<R>, rows: readonly R[]): Generator<string> {
  for (let start = 0; start < rows.length; start += COPY_CHUNK_ROWS) {
    yield* copyChunks(rows.slice(start, start + COPY_CHUNK_ROWS).map((row) => encodeStored(spec, row)));
  }
}

/** Loads rows (or already-encoded rows) into the spec's staging table, inside the caller's transaction. */
export async function stageRows<R>(tx: Queryable, spec: TableSpec<R>, rows: readonly R[] | { encoded: readonly EncodedRow[] }): Promise<void> {
  await tx.query(stageDdl(spec));
  const count = 'encoded' in rows ? rows.encoded.length : rows.length;
  if (count === 0) return;
  const target = stageTable(spec);
  const columns = storedColumns(spec);
  const names = columns.map(([name]) => quoteIdent(name));
  if (tx.copyFrom) {
    await tx.copyFrom(target, names, 'encoded' in rows ? copyChunks(rows.encoded) : encodeChunks(spec, rows));
    return;
  }
  const encoded = 'encoded' in rows ? rows.encoded : rows.map((row) => encodeStored(spec, row));
  const casts = columns.map(([name, kind]) => `u.${quoteIdent(name)}::${SQL_TYPE[kind]}`);
  const sql = `INSERT INTO ${target} (${names.join(', ')}) SELECT ${casts.join(', ')} FROM unnest(${names.map((_, index) => `$${index + 1}::text[]`).join(', ')}) AS u(${names.join(', ')})`;
  for (let start = 0; start < encoded.length; start += UNNEST_BATCH_ROWS) {
    const batch = encoded.slice(start, start + UNNEST_BATCH_ROWS);
    await tx.query(sql, names.map((_, column) => batch.map((fields) => fields[column] ?? null)));
  }
}
