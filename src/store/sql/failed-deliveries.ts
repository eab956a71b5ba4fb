import type { Queryable } from '../db/db.js';
import type { StoreSchema } from '../db/schema.js';
import type { DeliveryRow } from './deliveries.js';

/** Report folders whose latest delivery to a destination failed (not retried since with success): what `doctor` reports. */
export async function failedDeliveries(db: Queryable, schema: StoreSchema): Promise<DeliveryRow[]> {
  const { rows } = await db.query<DeliveryRow & { bytes_sent: string | number }>(
    `SELECT * FROM (
       SELECT DISTINCT ON (destination, report) run_id, destination, kind, report, remote, outcome, files_sent, bytes_sent, attempts, detail, duration_ms
         FROM ${schema.table('deliveries')} ORDER BY destination, report, recorded_at DESC, run_id DESC
     ) latest WHERE outcome = 'failed' ORDER BY report, destination`,
  );
  return rows.map((r) => ({ ...r, bytes_sent: Number(r.bytes_sent) }));
}
