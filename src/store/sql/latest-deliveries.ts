import type { Queryable } from '../db/db.js';
import type { StoreSchema } from '../db/schema.js';
import type { DeliveryRow } from './deliveries.js';

/** The latest row of each destination for one report folder (`<job>/<folder>`): what `doctor` and `deliver` look at. */
export async function latestDeliveries(db: Queryable, schema: StoreSchema, report: string): Promise<DeliveryRow[]> {
  const { rows } = await db.query<DeliveryRow & { bytes_sent: string | number }>(
    `SELECT DISTINCT ON (destination) run_id, destination, kind, report, remote, outcome, files_sent, bytes_sent, attempts, detail, duration_ms
       FROM ${schema.table('deliveries')} WHERE report = $1 ORDER BY destination, recorded_at DESC, run_id DESC`,
    [report],
  );
  return rows.map((r) => ({ ...r, bytes_sent: Number(r.bytes_sent) }));
}
