import { SUMMARY_BUCKET_COLUMNS, type SummaryBucketRow } from '../../model/rows.js';
import type { Queryable } from '../db/db.js';
import type { StoreSchema } from '../db/schema.js';
import type { Window } from '../../model/window.js';
import { decodeRow, selectList } from '../encoding/columns.js';
import { escapeText } from '../encoding/text-escape.js';
import { insertRows } from './insert-rows.js';
import { summarySource, summarySourceSql } from './summary-source.js';

/**
 * A run's summary buckets as pulled. Rewriting a summary within one run replaces it (a retried
 * stream) — that summary only: the wallet summaries of one environment are separate streams and
 * must not erase each other.
 */
export async function replaceSummaries(tx: Queryable, schema: StoreSchema, summaryRunId: string, rows: readonly SummaryBucketRow[]): Promise<void> {
  const sources = new Map<string, [string, string]>();
  for (const row of rows) {
    const source = summarySource(row);
    sources.set(source.join('\u0000'), source);
  }
  await tx.query(
    `DELETE FROM ${schema.table('summary_buckets')} b
     WHERE b.run_id = $1 AND (b.environment_id, ${summarySourceSql('b')}) IN (SELECT * FROM unnest($2::text[], $3::text[]))`,
    [escapeText(summaryRunId), [...sources.values()].map((s) => s[0]), [...sources.values()].map((s) => s[1])],
  );
  await insertRows(tx, schema.table('summary_buckets'), SUMMARY_BUCKET_COLUMNS, rows, { run_id: escapeText(summaryRunId) });
}

/**
 * The buckets of the newest pull of each summary (per environment and source, summary-source.ts)
 * among the runs of exactly this window.
 */
export async function newestSummaries(db: Queryable, schema: StoreSchema, organizationId: string, window: Window): Promise<SummaryBucketRow[]> {
  const { rows } = await db.query(
    `WITH pulled AS (
       SELECT s.*, ${summarySourceSql('s')} AS source, r.started_at AS run_started_at
       FROM ${schema.table('summary_buckets')} s JOIN ${schema.table('runs')} r USING (run_id)
       WHERE r.organization_id = $1 AND r.window_from = $2::timestamptz AND r.window_to = $3::timestamptz
     ),
     newest AS (
       SELECT DISTINCT ON (environment_id, source) environment_id, source, run_id FROM pulled ORDER BY environment_id, source, run_started_at DESC, run_id DESC
     )
     SELECT ${selectList('p', SUMMARY_BUCKET_COLUMNS)} FROM pulled p JOIN newest n USING (environment_id, source, run_id)
     ORDER BY p.environment_id, p.summary_id`,
    [escapeText(organizationId), window.from, window.to],
  );
  return rows.map((record) => decodeRow<SummaryBucketRow>(SUMMARY_BUCKET_COLUMNS, record));
}
