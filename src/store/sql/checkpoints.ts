import type { Checkpoint } from '../../model/ports.js';
import type { Queryable } from '../db/db.js';
import type { StoreSchema } from '../db/schema.js';
import { escapeText, unescapeText } from '../encoding/text-escape.js';

/**
 * Resume points (model/ports.ts `Checkpoint`), keyed by (run_key, stream). Saved inside the same
 * transaction as the page they follow, so the data and the position never diverge
 * (docs/reliability.md#checkpoints).
 */
export async function saveCheckpoint(tx: Queryable, schema: StoreSchema, checkpoint: Checkpoint, runId: string | null): Promise<void> {
  await tx.query(
    `INSERT INTO ${schema.table('checkpoints')} (run_key, stream, position, pages, "rows", done, run_id, updated_at)
     VALUES ($1, $2, $3, $4, $5::bigint, $6, $7, now())
     ON CONFLICT (run_key, stream) DO UPDATE SET position = EXCLUDED.position, pages = EXCLUDED.pages, "rows" = EXCLUDED."rows",
       done = EXCLUDED.done, run_id = EXCLUDED.run_id, updated_at = EXCLUDED.updated_at`,
    [escapeText(checkpoint.run_key), escapeText(checkpoint.stream), escapeText(checkpoint.position), checkpoint.pages, String(checkpoint.rows), checkpoint.done, runId],
    { reuse: true },
  );
}

interface CheckpointRecord {
  run_key: string;
  stream: string;
  position: string;
  pages: number;
  rows: string;
  done: boolean;
}

/** Every checkpoint left under this run_key (by an unfinished or failed run), sorted by stream. */
export async function loadCheckpoints(db: Queryable, schema: StoreSchema, runKey: string): Promise<Checkpoint[]> {
  const { rows } = await db.query<CheckpointRecord>(
    `SELECT run_key, stream, position, pages, "rows"::text AS "rows", done FROM ${schema.table('checkpoints')} WHERE run_key = $1 ORDER BY stream`,
    [escapeText(runKey)],
  );
  return rows.map((row) => ({
    run_key: unescapeText(row.run_key),
    stream: unescapeText(row.stream),
    position: unescapeText(row.position),
    pages: row.pages,
    rows: Number(row.rows),
    done: row.done,
  }));
}
