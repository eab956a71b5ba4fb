import type { UtcInstant } from '../../model/rows.js';
import { instantText } from '../encoding/columns.js';
import type { Queryable } from '../db/db.js';
import type { ClosePeriodInput } from '../../model/ports.js';
import type { StoreSchema } from '../db/schema.js';
import { escapeText, unescapeText } from '../encoding/text-escape.js';

/**
 * Closed accounting periods (docs/contracts.md#closed-periods: a closed month is never overwritten; a later run
 * writes an amendment). Closing is idempotent: the first close wins and is kept as it was.
 */
export interface ClosedPeriod {
  organization_id: string;
  /** e.g. `2026-10` */
  period: string;
  tz: string;
  window: { from: UtcInstant; to: UtcInstant } | null;
  run_id: string | null;
  closed_at: UtcInstant;
  note: string | null;
}

/** Records the close; returns false when the period was already closed (the original record stays). */
export async function closePeriod(db: Queryable, schema: StoreSchema, input: ClosePeriodInput): Promise<boolean> {
  const { rowCount } = await db.query(
    `INSERT INTO ${schema.table('closed_periods')} (organization_id, period, tz, window_from, window_to, run_id, closed_at, note)
     VALUES ($1, $2, $3, $4::timestamptz, $5::timestamptz, $6, now(), $7) ON CONFLICT (organization_id, period) DO NOTHING`,
    [
      escapeText(input.organizationId),
      escapeText(input.period),
      escapeText(input.window.tz),
      input.window.from,
      input.window.to,
      input.runId == null ? null : escapeText(input.runId),
      input.note == null ? null : escapeText(input.note),
    ],
  );
  return rowCount === 1;
}

interface ClosedPeriodRecord {
  organization_id: string;
  period: string;
  tz: string;
  window_from: string | null;
  window_to: string | null;
  run_id: string | null;
  closed_at: string;
  note: string | null;
}

export async function getClosedPeriod(db: Queryable, schema: StoreSchema, organizationId: string, period: string): Promise<ClosedPeriod | null> {
  const { rows } = await db.query<ClosedPeriodRecord>(
    `SELECT organization_id, period, tz, ${instantText('window_from')} AS window_from, ${instantText('window_to')} AS window_to, run_id,
       ${instantText('closed_at')} AS closed_at, note
     FROM ${schema.table('closed_periods')} WHERE organization_id = $1 AND period = $2`,
    [escapeText(organizationId), escapeText(period)],
  );
  const row = rows[0];
  if (row === undefined) return null;
  return {
    organization_id: unescapeText(row.organization_id),
    period: unescapeText(row.period),
    tz: unescapeText(row.tz),
    window: row.window_from === null || row.window_to === null ? null : { from: row.window_from, to: row.window_to },
    run_id: row.run_id === null ? null : unescapeText(row.run_id),
    closed_at: row.closed_at,
    note: row.note === null ? null : unescapeText(row.note),
  };
}

export async function isPeriodClosed(db: Queryable, schema: StoreSchema, organizationId: string, period: string): Promise<boolean> {
  return (await getClosedPeriod(db, schema, organizationId, period)) !== null;
}
