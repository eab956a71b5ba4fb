import { hash } from 'node:crypto';
import { copyLine } from '../encoding/copy-text.js';
import { columnKinds, encodeRow, SQL_TYPE, type ColumnKind } from '../encoding/columns.js';
import type { Queryable } from '../db/db.js';
import { quoteIdent } from '../db/schema.js';
import type { TableSpec } from './tables.js';

/**
 * Rows as stored (the row's columns, plus `row_hash` on hashed tables), encoded once to their
 * PostgreSQL input text, and the session-local staging tables they pass through on the way to an
 * upsert: COPY (or, without COPY, batched `unnest` inserts) into `pg_temp`, then one set-based
 * statement from it (merge-sql.ts). Temporary tables write no WAL; `ON COMMIT DELETE ROWS`
 * empties them at the end of every transaction.
 */

/** Rows per `unnest` statement on engines without COPY (docs/measurements.md#embedded-postgres: 1000 beats 5000). */
export const UNNEST_BATCH_ROWS = 1000;

/** Rows per COPY chunk: small enough that encoding the next overlaps the server parsing this one. */
const COPY_CHUNK_ROWS = 100;

export const ROW_HASH = 'row_hash';

export type EncodedRow = (string | null)[];

/** The stored columns of a spec, in order: its row columns, then `row_hash` when hashed. */
export function storedColumns<R>(spec: TableSpec<R>): readonly (readonly [string, ColumnKind])[] {
  const columns = columnKinds(spec.columns);
  return spec.hashed ? [...columns, [ROW_HASH, 'text'] as const] : columns;
}

/**
 * Digest of a row's COPY line (an unambiguous spelling of its exact stored text): equal hashes,
 * equal rows. One update per row: hashing field by field costs several times more.
 */
export function lineHash(line: string): string {
  // one-shot: no Hash object per row
  return hash('sha256', line, 'base64url').slice(0, 32);
}

/** A row as stored: its encoded columns, plus its hash on hashed tables. */
export function encodeStored<R>(spec: TableSpec<R>, row: R): EncodedRow {
  const fields = encodeRow(spec.columns, row);
  if (spec.hashed) fields.push(lineHash(copyLine(fields)));
  return fields;
}

/** A stored row's COPY line and its encoded columns (for hashed tables the hash is the last field). */
export interface EncodedLine {
  fields: EncodedRow;
  /** the COPY line of `fields`, without the trailing newline */
  text: string;
}

export function encodeStoredLine<R>(spec: TableSpec<R>, row: R): EncodedLine {
  const fields = encodeRow(spec.columns, row);
  const line = copyLine(fields);
  if (!spec.hashed) return { fields, text: line.slice(0, -1) };
  const hash = lineHash(line);
  fields.push(hash);
  return { fields, text: `${line.slice(0, -1)}\t${hash}` };
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

/** COPY lines (without newlines) in chunks. */
export function* lineChunks(lines: Iterable<string>): Generator<string> {
  let chunk = '';
  let count = 0;
  for (const line of lines) {
    chunk += line + '\n';
    if (++count === COPY_CHUNK_ROWS) {
      yield chunk;
      chunk = '';
      count = 0;
    }
  }
  if (chunk !== '') yield chunk;
}

/** Rows encoded lazily, chunk by chunk, so encoding overlaps the server's work. */
function encodeChunks<R>(spec: TableSpec<R>, rows: readonly R[]): Generator<string> {
  return lineChunks((function* () {
    for (const row of rows) yield encodeStoredLine(spec, row).text;
  })());
}

/** Loads rows (or already-encoded lines) into the spec's staging table, inside the caller's transaction. */
export async function stageRows<R>(tx: Queryable, spec: TableSpec<R>, rows: readonly R[] | { lines: readonly EncodedLine[] }): Promise<void> {
  await tx.query(stageDdl(spec));
  const count = 'lines' in rows ? rows.lines.length : rows.length;
  if (count === 0) return;
  const target = stageTable(spec);
  const columns = storedColumns(spec);
  const names = columns.map(([name]) => quoteIdent(name));
  if (tx.copyFrom) {
    await tx.copyFrom(target, names, 'lines' in rows ? lineChunks(rows.lines.map((line) => line.text)) : encodeChunks(spec, rows));
    return;
  }
  const encoded = 'lines' in rows ? rows.lines.map((line) => line.fields) : rows.map((row) => encodeStored(spec, row));
  const casts = columns.map(([name, kind]) => `u.${quoteIdent(name)}::${SQL_TYPE[kind]}`);
  const sql = `INSERT INTO ${target} (${names.join(', ')}) SELECT ${casts.join(', ')} FROM unnest(${names.map((_, index) => `$${index + 1}::text[]`).join(', ')}) AS u(${names.join(', ')})`;
  for (let start = 0; start < encoded.length; start += UNNEST_BATCH_ROWS) {
    const batch = encoded.slice(start, start + UNNEST_BATCH_ROWS);
    await tx.query(sql, names.map((_, column) => batch.map((fields) => fields[column] ?? null)));
  }
}
