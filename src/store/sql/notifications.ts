import type { Queryable } from '../db/db.js';
import type { StoreSchema } from '../db/schema.js';
import { escapeText } from '../encoding/text-escape.js';

export interface NotificationRow {
  run_id: string;
  destination: string;
  kind: string;
  event: string;
  outcome: 'delivered' | 'failed';
  attempts: number;
  detail: string;
  duration_ms: number;
}

/** The notifications table (migration 003): one row per run, destination and event; a repeat overwrites. */
export async function insertNotifications(db: Queryable, schema: StoreSchema, rows: readonly NotificationRow[]): Promise<void> {
  for (const row of rows) {
    await db.query(
      `INSERT INTO ${schema.table('notifications')} (run_id, destination, kind, event, outcome, attempts, detail, duration_ms)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
       ON CONFLICT (run_id, destination, event) DO UPDATE SET outcome = excluded.outcome, attempts = excluded.attempts, detail = excluded.detail, duration_ms = excluded.duration_ms, recorded_at = now()`,
      [escapeText(row.run_id), escapeText(row.destination), row.kind, row.event, row.outcome, row.attempts, escapeText(row.detail), row.duration_ms],
    );
  }
}
