import type { ColumnKind, Columns } from '../../model/columns.js';
import { arrayLiteral } from './copy-text.js';
import { parseJsonText, toJsonText } from './json-text.js';
import { quoteIdent } from '../db/schema.js';
import { escapeText, unescapeText } from './text-escape.js';

/**
 * How a row field is stored, written and read back. The row's column declaration (src/model/,
 * columns.ts) gives each field its kind; one table of kinds drives the COPY/unnest encoders, the
 * SELECT expressions and the decoders, so a value takes the same exact path on both engines:
 * bigints as digits, instants as canonical text, arrays and JSON as JSON text.
 */
export type { ColumnKind };

/** The columns a table or a query reads and writes: a row's declaration, or an ordered pick of it. */
export type ColumnMap<R> = Columns<R>;

/** SQL type of each kind (migrations declare the same; test/integration/store checks they agree). */
export const SQL_TYPE: Readonly<Record<ColumnKind, string>> = {
  id: 'text',
  text: 'text',
  bigint: 'numeric(39,0)',
  instant: 'timestamptz',
  bool: 'boolean',
  json: 'jsonb',
  jsonText: 'text',
  'text[]': 'text[]',
  int: 'integer',
  number: 'numeric',
};

const CANONICAL_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

function fail(field: string, kind: ColumnKind, value: unknown): never {
  throw new TypeError(`store: field ${field} (${kind}) cannot hold ${typeof value} ${String(value).slice(0, 40)}`);
}

/** The PostgreSQL input text of one value, or null for SQL NULL. */
export function encodeValue(field: string, kind: ColumnKind, value: unknown): string | null {
  if (value === null || value === undefined) return null;
  switch (kind) {
    case 'id':
    case 'text':
      return typeof value === 'string' ? escapeText(value) : fail(field, kind, value);
    case 'bigint':
      return typeof value === 'bigint' ? value.toString() : fail(field, kind, value);
    case 'instant':
      // Canonical UtcInstant only: anything else would be reinterpreted by the server's parser.
      return typeof value === 'string' && CANONICAL_INSTANT.test(value) ? value : fail(field, kind, value);
    case 'bool':
      return typeof value === 'boolean' ? (value ? 't' : 'f') : fail(field, kind, value);
    case 'json':
    case 'jsonText':
      return toJsonText(value);
    case 'text[]':
      return Array.isArray(value) && value.every((item) => typeof item === 'string') ? arrayLiteral(value.map((item: string) => escapeText(item))) : fail(field, kind, value);
    case 'int':
      return typeof value === 'number' && Number.isSafeInteger(value) ? String(value) : fail(field, kind, value);
    case 'number':
      return typeof value === 'number' && Number.isFinite(value) ? String(value) : fail(field, kind, value);
  }
}

/** A timestamptz as a canonical UtcInstant, independent of the session's TimeZone and DateStyle. */
export function instantText(expression: string): string {
  return `to_char(${expression} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;
}

/** The SQL expression that gives a column in its exact text form (see db.ts conventions). */
function valueExpr(alias: string, column: string, kind: ColumnKind): string {
  const ref = `${alias}.${quoteIdent(column)}`;
  switch (kind) {
    case 'bigint':
    case 'number':
    case 'json':
      return `${ref}::text`;
    case 'instant':
      return instantText(ref);
    case 'text[]':
      return `array_to_json(${ref})::text`;
    default:
      return ref;
  }
}

/** The SELECT expression that returns a column in its exact text form (see db.ts conventions). */
export function selectExpr(alias: string, column: string, kind: ColumnKind): string {
  return `${valueExpr(alias, column, kind)} AS ${quoteIdent(column)}`;
}

export function decodeValue(kind: ColumnKind, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  switch (kind) {
    case 'id':
    case 'text':
      return unescapeText(value as string);
    case 'bigint':
      return BigInt(value as string);
    case 'number':
      return Number(value as string);
    case 'json':
    case 'jsonText':
      return parseJsonText(value as string);
    case 'text[]':
      return (JSON.parse(value as string) as string[]).map(unescapeText);
    default:
      return value;
  }
}

/**
 * The select list as one column, `packed`: a JSON array of every column's text form (or null), in
 * map order, built by `json_build_array`. Every value is already text, so the array holds strings
 * and nulls only (booleans and small integers stay JSON's own) and JSON.parse gives them back
 * exactly. One field per row instead of one per column: the embedded engine's wire parser and the
 * copy between its thread and the job's cost per field, and a payment has 46
 * (docs/benchmarks.md#round-3-fewer-statements-per-page-rows-read-packed). `decodePackedRow`
 * reads it.
 */
export function packedSelect<R>(alias: string, map: ColumnMap<R>, nullColumns: readonly string[] = []): string {
  const values = columnKinds(map).map(([column, kind]) => (nullColumns.includes(column) ? 'NULL' : valueExpr(alias, column, kind)));
  return `json_build_array(${values.join(', ')})::text AS packed`;
}

/** Quoted column names in map order. */
export function columnNames<R>(map: ColumnMap<R>): string[] {
  return Object.keys(map).map(quoteIdent);
}

export function selectList<R>(alias: string, map: ColumnMap<R>, nullColumns: readonly string[] = []): string {
  return columnKinds(map)
    .map(([column, kind]) => (nullColumns.includes(column) ? `NULL AS ${quoteIdent(column)}` : selectExpr(alias, column, kind)))
    .join(', ');
}

/**
 * Each column's name and kind, in map order. Column maps are constant: their entries are computed
 * once, not per row (the load path encodes ~100k rows/s).
 */
const entriesCache = new WeakMap<object, readonly (readonly [string, ColumnKind])[]>();
export function columnKinds<R>(map: ColumnMap<R>): readonly (readonly [string, ColumnKind])[] {
  let entries = entriesCache.get(map);
  if (entries === undefined) {
    entries = Object.entries<{ kind: ColumnKind }>(map).map(([field, column]) => [field, column.kind] as const);
    entriesCache.set(map, entries);
  }
  return entries;
}

export function encodeRow<R>(map: ColumnMap<R>, row: R): (string | null)[] {
  const record = row as Record<string, unknown>;
  const entries = columnKinds(map);
  const fields = new Array<string | null>(entries.length);
  for (let index = 0; index < entries.length; index++) {
    const [field, kind] = entries[index] as readonly [string, ColumnKind];
    fields[index] = encodeValue(field, kind, record[field]);
  }
  return fields;
}

/** A row selected with `packedSelect` as the row type. */
export function decodePackedRow<R>(map: ColumnMap<R>, packed: string): R {
  const values = JSON.parse(packed) as unknown[];
  const entries = columnKinds(map);
  const row: Record<string, unknown> = {};
  for (let index = 0; index < entries.length; index++) {
    const [field, kind] = entries[index] as readonly [string, ColumnKind];
    row[field] = decodeValue(kind, values[index]);
  }
  return row as R;
}

/** A database row (selected with `selectList`) as the row type; the column map is the contract. */
export function decodeRow<R>(map: ColumnMap<R>, dbRow: Record<string, unknown>): R {
  const row: Record<string, unknown> = {};
  for (const [field, kind] of columnKinds(map)) row[field] = decodeValue(kind, dbRow[field]);
  return row as R;
}
