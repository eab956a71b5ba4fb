/**
 * The second step of a two-step record (the journal's exported entries, the lots' recorded
 * periods): a run first stages its rows as `pending`, and only once its files are published does it
 * confirm them — the rows it replaces (same organization and key, already confirmed) are deleted
 * and its own become confirmed, in one transaction. A run that died before publishing leaves only
 * pending rows, which the next run replaces. Returns the rows confirmed.
 */
import type { Db } from '../db/db.js';
import { escapeText } from '../encoding/text-escape.js';

export interface PendingRecord {
  /** the table's qualified name */
  table: string;
  /** the column that, with the organization, names what a row records (an entry number, a period) */
  key: string;
  /** the status a confirmed row has, and the column stamped when it gets it */
  confirmedStatus: string;
  confirmedAt: string;
}

export async function confirmPending(db: Db, record: PendingRecord, runId: string): Promise<number> {
  const { table, key, confirmedStatus, confirmedAt } = record;
  return db.transaction(async (tx) => {
    await tx.query(
      `DELETE FROM ${table} x USING ${table} p
       WHERE p.run_id = $1 AND p.status = 'pending' AND x.organization_id = p.organization_id AND x.${key} = p.${key} AND x.status = $2`,
      [escapeText(runId), confirmedStatus],
    );
    const { rows } = await tx.query<{ n: string }>(
      `WITH done AS (UPDATE ${table} SET status = $2, ${confirmedAt} = now() WHERE run_id = $1 AND status = 'pending' RETURNING 1) SELECT count(*)::text AS n FROM done`,
      [escapeText(runId), confirmedStatus],
    );
    return Number(rows[0]?.n ?? 0);
  });
}
