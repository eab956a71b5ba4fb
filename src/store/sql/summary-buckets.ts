import { SUMMARY_BUCKET_COLUMNS, type SummaryBucketRow } from '../../model/rows.js';
import type { Queryable } from '../db/db.js';
import type { StoreSchema } from '../db/schema.js';
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
