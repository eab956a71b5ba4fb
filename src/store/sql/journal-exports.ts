/**
 * The snapshot's record of exported journal entries (migration 005): src/model/journal-record.ts
 * `JournalExports` over the Db port.
 */
import type { JournalExports } from '../../model/journal-record.js';
import { instantText } from '../encoding/columns.js';
import type { Db } from '../db/db.js';
import { confirmPending } from './confirm-pending.js';
import { findExportedEntries } from './exported-journal-entries.js';
import { refreshStatistics } from './refresh-statistics.js';
import { stagePendingEntries } from './pending-journal-entries.js';
import type { StoreSchema } from '../db/schema.js';
import { escapeText } from '../encoding/text-escape.js';

export function createJournalExports(db: Db, schema: StoreSchema): JournalExports {
  const entries = schema.table('journal_entries');
  // once, before the first comparison: what earlier runs exported is there by then (refresh-statistics.ts)
  let analyzed: Promise<void> | null = null;
  return {
    async find(organizationId, entryNos) {
      // statistics only speed the plan: a failure to refresh them is no reason to stop the run
      analyzed ??= refreshStatistics(db, [entries, schema.table('journal_lines')]).catch(() => undefined);
      await analyzed;
      return findExportedEntries(db, schema, organizationId, entryNos);
    },

    async clearPending(organizationId) {
      await db.query(`DELETE FROM ${entries} WHERE organization_id = $1 AND status = 'pending'`, [escapeText(organizationId)]);
    },

    stage: (organizationId, runId, period, staged) => stagePendingEntries(db, schema, organizationId, runId, period, staged),

    confirm: (runId) => confirmPending(db, { table: entries, key: 'entry_no', confirmedStatus: 'exported', confirmedAt: 'exported_at' }, runId),

    async firstOpenInstant(organizationId) {
      const { rows } = await db.query<{ open_from: string | null }>(
        `SELECT ${instantText('max(window_to)')} AS open_from FROM ${schema.table('closed_periods')} WHERE organization_id = $1`,
        [escapeText(organizationId)],
      );
      return rows[0]?.open_from ?? null;
    },
  };
}
