/**
 * The snapshot's record of the subledger's closed periods (migrations 010–015):
 * src/model/lots-record.ts `LotsRecord` over the Db port — a run stages its period
 * (pending-lot-periods.ts) and confirms it; later runs read the recorded periods back
 * (recorded-lot-periods.ts).
 */
import type { LotsRecord } from '../../model/lots-record.js';
import type { Db } from '../db/db.js';
import { confirmPending } from './confirm-pending.js';
import type { StoreSchema } from '../db/schema.js';
import { escapeText, unescapeText } from '../encoding/text-escape.js';
import { stageLotPeriod } from './pending-lot-periods.js';
import { loadLotPeriod, lotPeriodsEndingBy } from './recorded-lot-periods.js';

export function createLotsRecord(db: Db, schema: StoreSchema): LotsRecord {
  const periods = schema.table('lot_periods');
  return {
    async clearPending(organizationId) {
      await db.query(`DELETE FROM ${periods} WHERE organization_id = $1 AND status = 'pending'`, [escapeText(organizationId)]);
    },

    stage: (organizationId, runId, rec) => stageLotPeriod(db, schema, organizationId, runId, rec),

    confirm: (runId) => confirmPending(db, { table: periods, key: 'period', confirmedStatus: 'recorded', confirmedAt: 'recorded_at' }, runId),

    period: (organizationId, period) => loadLotPeriod(db, schema, organizationId, period, true),

    async latestEndingBy(organizationId, at) {
      const { rows } = await db.query<{ period: string }>(
        `SELECT period FROM ${periods} WHERE organization_id = $1 AND status = 'recorded' AND window_to <= $2 ORDER BY window_to DESC LIMIT 1`,
        [escapeText(organizationId), at],
      );
      const period = rows[0]?.period;
      return period === undefined ? null : loadLotPeriod(db, schema, organizationId, unescapeText(period), false);
    },

    periodsEndingBy: (organizationId, at) => lotPeriodsEndingBy(db, schema, organizationId, at),
  };
}
