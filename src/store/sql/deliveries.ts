import type { Queryable } from '../db/db.js';
import type { StoreSchema } from '../db/schema.js';
import { escapeText } from '../encoding/text-escape.js';

export interface DeliveryRow {
  run_id: string;
  destination: string;
  kind: string;
  report: string;
  remote: string;
  outcome: 'delivered' | 'unchanged' | 'failed';
  files_sent: number;
  bytes_sent: number;
  attempts: number;
  detail: string;
  duration_ms: number;
}

/** The deliveries table (migration 009): one row per run, destination and report folder; a repeat overwrites. */
export async function insertDeliveries(db: Queryable, schema: StoreSchema, rows: readonly DeliveryRow[]): Promise<void> {
  for (const row of rows) {
    await db.query(
      `INSERT INTO ${schema.table('deliveries')} (run_id, destination, kind, report, remote, outcome, files_sent, bytes_sent, attempts, detail, duration_ms)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
       ON CONFLICT (run_id, destination, report) DO UPDATE SET kind = excluded.kind, remote = excluded.remote, outcome = excluded.outcome, files_sent = excluded.files_sent,
         bytes_sent = excluded.bytes_sent, attempts = excluded.attempts, detail = excluded.detail, duration_ms = excluded.duration_ms, recorded_at = now()`,
      [escapeText(row.run_id), escapeText(row.destination), row.kind, escapeText(row.report), escapeText(row.remote), row.outcome, row.files_sent, row.bytes_sent, row.attempts, escapeText(row.detail), row.duration_ms],
    );
  }
}
