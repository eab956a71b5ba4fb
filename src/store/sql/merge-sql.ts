import type { StoreSchema } from '../db/schema.js';
import { quoteIdent } from '../db/schema.js';
import { ROW_HASH, stageTable, storedColumns } from './stage.js';
import type { TableSpec } from './tables.js';

/**
 * The set-based upsert from a staging table into its target, as one statement:
 *
 *   INSERT … SELECT FROM stage ON CONFLICT (key) DO UPDATE … WHERE <the row differs>
 *
 * so a re-read that changes nothing writes nothing (no dead tuples, no WAL, no history). Counts
 * of inserted and updated rows come from joining the RETURNING rows to the target table in the
 * same statement: every part of one statement sees the snapshot taken before it (PostgreSQL docs,
 * "Data-Modifying Statements in WITH"), so that join finds the OLD row, or none for an insert.
 * Parameter $1 is the run id recorded on changed rows.
 */
export interface MergeHistory {
  table: string;
  fields: readonly string[];
}

function upsertCte<R>(schema: StoreSchema, spec: TableSpec<R>, returning: readonly string[]): string {
  const target = schema.table(spec.table);
  const columns = storedColumns(spec).map(([name]) => quoteIdent(name));
  const keys = spec.key.map(quoteIdent);
  const nonKey = columns.filter((column) => !keys.includes(column));
  const runColumns = spec.tracksRuns ? ['"first_run_id"', '"first_seen_at"', '"last_run_id"', '"last_changed_at"'] : [];
  const runValues = spec.tracksRuns ? ['$1::text', 'now()', '$1::text', 'now()'] : [];
  const updates = [...nonKey, ...(spec.tracksRuns ? ['"last_run_id"', '"last_changed_at"'] : [])].map((column) => `${column} = EXCLUDED.${column}`);
  // "The row differs": on hashed tables the stored digest of every column says it in one text
  // comparison (stage.ts, lineHash); comparing each column instead costs a jsonb/numeric/array
  // comparison per field and row (docs/benchmarks.md, "Snapshot cost per row").
  const differs = spec.hashed
    ? `t.${quoteIdent(ROW_HASH)} IS DISTINCT FROM EXCLUDED.${quoteIdent(ROW_HASH)}`
    : `(${nonKey.map((column) => `t.${column}`).join(', ')}) IS DISTINCT FROM (${nonKey.map((column) => `EXCLUDED.${column}`).join(', ')})`;
  const guards = [...(spec.version === undefined ? [] : [`EXCLUDED.${quoteIdent(spec.version)} >= t.${quoteIdent(spec.version)}`]), differs];
  return `up AS (
    INSERT INTO ${target} AS t (${[...columns, ...runColumns].join(', ')})
    SELECT ${[...columns.map((column) => `s.${column}`), ...runValues].join(', ')} FROM ${stageTable(spec)} s
    ON CONFLICT (${keys.join(', ')}) DO UPDATE SET ${updates.join(', ')}
    WHERE ${guards.join(' AND ')}
    RETURNING ${returning.map((column) => `t.${column}`).join(', ')}
  )`;
}

function keyJoin<R>(spec: TableSpec<R>, left: string, right: string): string {
  return spec.key.map((field) => `${left}.${quoteIdent(field)} = ${right}.${quoteIdent(field)}`).join(' AND ');
}

/**
 * The stored row for each RETURNING row, as a LATERAL subquery with LIMIT 1: the LIMIT keeps the
 * planner from flattening it into a hash join that would scan the whole table once per page (the
 * staging table has no statistics, so estimates are guesses); this is one index probe per row.
 */
function oldRow<R>(schema: StoreSchema, spec: TableSpec<R>, columns: readonly string[]): string {
  return `LEFT JOIN LATERAL (SELECT ${columns.map((column) => `x.${column}`).join(', ')} FROM ${schema.table(spec.table)} x WHERE ${keyJoin(spec, 'x', 'u')} LIMIT 1) o ON true`;
}

/** Upsert without history. Result row: `{ inserted, updated }`. */
export function mergeSql<R>(schema: StoreSchema, spec: TableSpec<R>): string {
  const keys = spec.key.map(quoteIdent);
  const probe = keys[0] ?? '';
  return `WITH ${upsertCte(schema, spec, keys)}
    SELECT count(*) FILTER (WHERE o.${probe} IS NULL)::int AS inserted, count(*) FILTER (WHERE o.${probe} IS NOT NULL)::int AS updated
    FROM up u ${oldRow(schema, spec, [probe])}`;
}

/**
 * Upsert that also appends a history row for every new row (`first_seen`) and every row whose
 * `history.fields` changed (`changed`, listing them). Result row: `{ inserted, updated, history }`.
 * The history table has organization_id, payment_id-like key columns named as in the spec.
 */
export function mergeWithHistorySql<R>(schema: StoreSchema, spec: TableSpec<R>, history: MergeHistory, versionField: string): string {
  const keys = spec.key.map(quoteIdent);
  const fields = history.fields.map(quoteIdent);
  const probe = keys[0] ?? '';
  const changed = history.fields.map((field) => `CASE WHEN o.${quoteIdent(field)} IS DISTINCT FROM u.${quoteIdent(field)} THEN '${field}' END`);
  const version = quoteIdent(versionField);
  return `WITH ${upsertCte(schema, spec, [...keys, version, ...fields])},
  cmp AS (
    SELECT u.*, o.${probe} IS NULL AS is_new, o."status" AS previous_status,
      CASE WHEN o.${probe} IS NULL THEN '{}'::text[] ELSE array_remove(ARRAY[${changed.join(', ')}], NULL) END AS changed
    FROM up u ${oldRow(schema, spec, [...new Set([probe, '"status"', ...fields])])}
  ),
  hist AS (
    INSERT INTO ${schema.table(history.table)} (${[...keys, '"run_id"', '"observed_at"', '"change"', '"changed_fields"', '"previous_status"', version, ...fields].join(', ')})
    SELECT ${[...keys, '$1::text', 'now()', `CASE WHEN is_new THEN 'first_seen' ELSE 'changed' END`, 'changed', 'previous_status', version, ...fields].join(', ')}
    FROM cmp WHERE is_new OR cardinality(changed) > 0
    RETURNING 1
  )
  SELECT count(*) FILTER (WHERE is_new)::int AS inserted, count(*) FILTER (WHERE NOT is_new)::int AS updated, (SELECT count(*) FROM hist)::int AS history
  FROM cmp`;
}
