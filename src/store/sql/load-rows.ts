import type { Queryable, SqlParam } from '../db/db.js';
import { mergeSql, mergeWithHistorySql, type MergeHistory } from './merge-sql.js';
import type { WriteStats } from '../../model/ports.js';
import type { StoreSchema } from '../db/schema.js';
import { quoteIdent } from '../db/schema.js';
import { encodeValue } from '../encoding/columns.js';
import { copyField } from '../encoding/copy-text.js';
import { dedupeByKey, encodeStoredLine, lineChunks, ROW_HASH, stageRows, storedColumns, type EncodedLine } from './stage.js';
import type { TableSpec } from './tables.js';

/**
 * Writes one page of rows into a table, inside the caller's transaction, so that re-reading
 * data that did not change writes nothing and a change is recorded once.
 *
 * Hashed tables with COPY (the payments and ledger pages on either engine):
 *   1. look up the stored `row_hash` of the page's keys (one index probe each);
 *   2. equal hash → unchanged: not sent again;
 *   3. unknown key → new: COPY straight into the table (and its `first_seen` history rows),
 *      as fast as a plain COPY; a concurrent writer inserting the same key meanwhile makes the
 *      COPY fail with a unique violation, and the caller retries the page with `viaStaging`;
 *   4. different hash → COPY into the staging table, then the set-based upsert
 *      (merge-sql.ts: ON CONFLICT … DO UPDATE … WHERE the row differs, plus history).
 * With `assumeNew`, step 1 is skipped and every row goes by step 3.
 * Everything else (small tables, engines without COPY, retries) goes through staging + upsert.
 */
export interface LoadOptions {
  runId: string | null;
  history?: MergeHistory & { versionField: string };
  /** skip the hash fast path: every row through staging + upsert */
  viaStaging?: boolean;
  /**
   * skip the hash lookup and COPY every row as new: for a page the caller expects to be new (its
   * stream's previous page was); a key that exists fails the COPY with a unique violation, and the
   * caller writes the page again without this
   */
  assumeNew?: boolean;
}

interface MergeCounts {
  inserted: number;
  updated: number;
  history?: number;
}

async function mergeStaged<R>(tx: Queryable, schema: StoreSchema, spec: TableSpec<R>, rows: readonly R[] | { lines: readonly EncodedLine[] }, options: LoadOptions): Promise<MergeCounts> {
  await stageRows(tx, spec, rows);
  const sql = options.history ? mergeWithHistorySql(schema, spec, options.history, options.history.versionField) : mergeSql(schema, spec);
  const params: SqlParam[] = spec.tracksRuns || options.history ? [options.runId] : [];
  const { rows: [counts] } = await tx.query<MergeCounts>(sql, params, { reuse: true });
  return { inserted: counts?.inserted ?? 0, updated: counts?.updated ?? 0, history: counts?.history ?? 0 };
}

/** The stored hash of each key of the page that exists, by position in `keys`. */
async function storedHashes<R>(tx: Queryable, schema: StoreSchema, spec: TableSpec<R>, keys: readonly (string | null)[][]): Promise<Map<number, string>> {
  const names = spec.key.map(quoteIdent);
  const { rows } = await tx.query<{ ord: number; row_hash: string }>(
    `SELECT k.ord::int AS ord, x.row_hash FROM unnest(${names.map((_, index) => `$${index + 1}::text[]`).join(', ')}) WITH ORDINALITY AS k(${names.join(', ')}, ord)
     CROSS JOIN LATERAL (SELECT t.${quoteIdent(ROW_HASH)} AS row_hash FROM ${schema.table(spec.table)} t WHERE ${names.map((key) => `t.${key} = k.${key}`).join(' AND ')} LIMIT 1) x`,
    names.map((_, column) => keys.map((key) => key[column] ?? null)),
    { reuse: true },
  );
  return new Map(rows.map((row) => [row.ord - 1, row.row_hash]));
}

/**
 * COPY new rows straight into the table, encoding them lazily so the server parses one chunk
 * while the next is encoded; then their first_seen history rows (collected on the way).
 */
async function copyNew<R>(tx: Queryable, schema: StoreSchema, spec: TableSpec<R>, rows: readonly R[], options: LoadOptions): Promise<number> {
  const copyFrom = tx.copyFrom;
  if (!copyFrom || rows.length === 0) return 0;
  const columns = storedColumns(spec).map(([name]) => name);
  // first_seen_at / last_changed_at / observed_at take their DEFAULT now(): the same transaction time as the upsert path.
  const runColumns = spec.tracksRuns ? ['first_run_id', 'last_run_id'] : [];
  const runSuffix = spec.tracksRuns ? `\t${copyField(options.runId)}\t${copyField(options.runId)}` : '';
  const history = options.history;
  const position = new Map(columns.map((name, index) => [name, index]));
  const carried = history ? [...spec.key, history.versionField, ...history.fields] : [];
  const carriedIndexes = carried.map((name) => position.get(name) ?? -1);
  const historySuffix = `\t${copyField(options.runId)}\tfirst_seen\t{}\t\\N`;
  const historyLines: string[] = [];
  const lines = (function* () {
    for (const row of rows) {
      const { fields, text } = encodeStoredLine(spec, row);
      if (history) historyLines.push(carriedIndexes.map((index) => copyField(fields[index] ?? null)).join('\t') + historySuffix);
      yield text + runSuffix;
    }
  })();
  await copyFrom(schema.table(spec.table), [...columns, ...runColumns].map(quoteIdent), lineChunks(lines));
  if (history) {
    await copyFrom(schema.table(history.table), [...carried, 'run_id', 'change', 'changed_fields', 'previous_status'].map(quoteIdent), lineChunks(historyLines));
  }
  return rows.length;
}

export async function loadRows<R>(tx: Queryable, schema: StoreSchema, spec: TableSpec<R>, rows: readonly R[], options: LoadOptions): Promise<WriteStats> {
  const unique = dedupeByKey(spec, rows);
  let inserted = 0;
  let updated = 0;
  let history = 0;
  if (unique.length > 0) {
    if (!spec.hashed || !tx.copyFrom || options.viaStaging) {
      ({ inserted, updated, history = 0 } = await mergeStaged(tx, schema, spec, unique, options));
    } else if (options.assumeNew) {
      inserted = await copyNew(tx, schema, spec, unique, options);
      if (options.history) history += inserted;
    } else {
      const keyKinds = spec.key.map((key) => spec.columns[key].kind);
      const keys = unique.map((row) => spec.key.map((key, index) => encodeValue(key, keyKinds[index] ?? 'text', (row as Record<string, unknown>)[key])));
      const stored = await storedHashes(tx, schema, spec, keys);
      const fresh: R[] = [];
      const changed: EncodedLine[] = [];
      unique.forEach((row, index) => {
        const hash = stored.get(index);
        if (hash === undefined) {
          fresh.push(row);
          return;
        }
        const line = encodeStoredLine(spec, row);
        if (line.fields.at(-1) !== hash) changed.push(line);
      });
      inserted = await copyNew(tx, schema, spec, fresh, options);
      if (options.history) history += inserted;
      if (changed.length > 0) {
        const counts = await mergeStaged(tx, schema, spec, { lines: changed }, options);
        inserted += counts.inserted;
        updated += counts.updated;
        history += counts.history ?? 0;
      }
    }
  }
  const stats: WriteStats = { inserted, updated, unchanged: rows.length - inserted - updated };
  if (options.history) stats.history = history;
  return stats;
}

/** PostgreSQL's unique_violation: a concurrent writer inserted a key this page took for new. */
export function isUniqueViolation(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === '23505';
}
