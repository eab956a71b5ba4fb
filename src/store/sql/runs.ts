import type { UtcInstant } from '../../model/rows.js';
import { instantText } from '../encoding/columns.js';
import type { Queryable } from '../db/db.js';
import { toJsonText } from '../encoding/json-text.js';
import type { RunInfo, RunStatus } from '../../model/ports.js';
import type { StoreSchema } from '../db/schema.js';
import { escapeText, unescapeText } from '../encoding/text-escape.js';

/** The runs table: one row per pull or report run, its window, parameters (no secrets) and outcome. */
export async function insertRun(db: Queryable, schema: StoreSchema, run: RunInfo): Promise<void> {
  await db.query(
    `INSERT INTO ${schema.table('runs')} (run_id, run_key, command, organization_id, window_from, window_to, window_tz, parameters, started_at)
     VALUES ($1, $2, $3, $4, $5::timestamptz, $6::timestamptz, $7, $8::jsonb, $9::timestamptz)
     ON CONFLICT (run_id) DO NOTHING`,
    [
      escapeText(run.run_id),
      escapeText(run.run_key),
      escapeText(run.command),
      escapeText(run.organization_id),
      run.window?.from ?? null,
      run.window?.to ?? null,
      run.window === null ? null : escapeText(run.window.tz),
      toJsonText(run.parameters),
      run.started_at,
    ],
  );
}

/** Statuses of a run that completed its pull: its checkpoints are spent. */
const COMPLETE: ReadonlySet<RunStatus> = new Set(['succeeded', 'exceptions']);

export async function finishRun(tx: Queryable, schema: StoreSchema, runId: string, status: RunStatus, counts: Record<string, number>): Promise<void> {
  const { rows } = await tx.query<{ run_key: string }>(
    `UPDATE ${schema.table('runs')} SET status = $2, finished_at = now(), counts = $3::jsonb WHERE run_id = $1 RETURNING run_key`,
    [escapeText(runId), status, toJsonText(counts)],
  );
  const runKey = rows[0]?.run_key;
  if (runKey !== undefined && COMPLETE.has(status)) {
    await tx.query(`DELETE FROM ${schema.table('checkpoints')} WHERE run_key = $1`, [runKey]);
  }
}

export interface RunningRun {
  run_id: string;
  started_at: UtcInstant;
}

/** The newest run still marked running for (organization, command): who holds a run lock, as far as the table knows. */
export async function newestRunningRun(db: Queryable, schema: StoreSchema, organizationId: string, command: string): Promise<RunningRun | null> {
  const { rows } = await db.query<RunningRun>(
    `SELECT run_id, ${instantText('started_at')} AS started_at FROM ${schema.table('runs')}
     WHERE organization_id = $1 AND command = $2 AND status = 'running' ORDER BY started_at DESC, run_id DESC LIMIT 1`,
    [escapeText(organizationId), escapeText(command)],
  );
  const row = rows[0];
  return row === undefined ? null : { run_id: unescapeText(row.run_id), started_at: row.started_at };
}
