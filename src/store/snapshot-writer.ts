import type { AssetRow, BillRecord, BillSummaryRow, LedgerRow, PaymentRow, SummaryBucketRow, WalletRow } from '../model/rows.js';
import { FINDING_COLUMNS, type Finding } from '../model/results.js';
import type { Checkpoint, RunInfo, RunStatus, SnapshotWriter, WriteStats } from '../model/ports.js';
import { AppError } from '../util/errors.js';
import type { Db } from './db/db.js';
import type { StoreSchema } from './db/schema.js';
import { escapeText } from './encoding/text-escape.js';
import { PageWriter } from './page-writer.js';
import { mergeBills, replaceBillSummary } from './sql/bills.js';
import { loadCheckpoints, saveCheckpoint } from './sql/checkpoints.js';
import { insertRows } from './sql/insert-rows.js';
import { loadRows } from './sql/load-rows.js';
import { finishRun, insertRun } from './sql/runs.js';
import { replaceSummaries } from './sql/summary-buckets.js';
import { ASSETS, LEDGER, PAYMENT_HISTORY_FIELDS, PAYMENTS } from './sql/tables.js';
import { mergeWallets } from './sql/wallets.js';

/**
 * The Postgres snapshot behind model/ports.ts `SnapshotWriter`: one writer per run (it remembers the
 * run started by `beginRun`). Each page is one transaction holding its rows and the stream's
 * checkpoint (page-writer.ts; sql/load-rows.ts: new rows COPied in, changed rows staged and upserted
 * with a history row per change of a payment's status, amounts or fees, unchanged rows left alone).
 * Re-reading a window that did not change writes nothing but the checkpoint. Each other write is
 * one operation of sql/ in a transaction of its own.
 */
export interface PostgresSnapshotWriter extends SnapshotWriter {
  /** the run begun by `beginRun`, or null before */
  readonly runId: string | null;
}

/** Where payment changes are recorded, for every writer of payments (runs and the listener). */
export const PAYMENT_HISTORY = { table: 'payment_history', fields: PAYMENT_HISTORY_FIELDS, versionField: 'updated_at' } as const;

export interface SnapshotWriterOptions {
  /**
   * Write pages expected to be new in groups, one transaction for the pages waiting together
   * (commit-group.ts). Default: on the embedded engine, which runs one transaction at a time, so
   * the pages wait for each other anyway; a server's pool writes them side by side instead.
   */
  groupPages?: boolean;
}

export function createSnapshotWriter(db: Db, schema: StoreSchema, options: SnapshotWriterOptions = {}): PostgresSnapshotWriter {
  let runId: string | null = null;
  const pages = new PageWriter(db, schema, options.groupPages ?? db.engine === 'pglite');

  const requireRun = (what: string): string => {
    if (runId === null) throw new AppError('internal', 'run_not_begun', `${what} before beginRun`);
    return runId;
  };

  return {
    get runId() {
      return runId;
    },

    async beginRun(run: RunInfo): Promise<Checkpoint[]> {
      await insertRun(db, schema, run);
      runId = run.run_id;
      return loadCheckpoints(db, schema, run.run_key);
    },

    upsertWallets(rows: readonly WalletRow[]): Promise<WriteStats> {
      if (rows.length === 0) return Promise.resolve({ inserted: 0, updated: 0, unchanged: 0 });
      return db.transaction((tx) => mergeWallets(tx, schema, rows, runId));
    },

    upsertAssets(rows: readonly AssetRow[]): Promise<WriteStats> {
      return db.transaction((tx) => loadRows(tx, schema, ASSETS, rows, { runId: runId === null ? null : escapeText(runId) }));
    },

    async writePaymentsPage(rows: readonly PaymentRow[], checkpoint: Checkpoint): Promise<WriteStats> {
      return pages.write({ spec: PAYMENTS, rows, checkpoint, run: requireRun('writePaymentsPage'), history: PAYMENT_HISTORY });
    },

    async writeLedgerPage(rows: readonly LedgerRow[], checkpoint: Checkpoint): Promise<WriteStats> {
      return pages.write({ spec: LEDGER, rows, checkpoint, run: requireRun('writeLedgerPage') });
    },

    async writeSummaries(summaryRunId: string, rows: readonly SummaryBucketRow[], checkpoint: Checkpoint): Promise<void> {
      await db.transaction(async (tx) => {
        await replaceSummaries(tx, schema, summaryRunId, rows);
        await saveCheckpoint(tx, schema, checkpoint, summaryRunId);
      });
    },

    async writeBillsPage(records: readonly BillRecord[], checkpoint: Checkpoint): Promise<WriteStats> {
      const run = requireRun('writeBillsPage');
      return db.transaction(async (tx) => {
        const stats = await mergeBills(tx, schema, records, run);
        await saveCheckpoint(tx, schema, checkpoint, run);
        return stats;
      }, { asyncCommit: true });
    },

    async writeBillSummary(summaryRunId: string, row: BillSummaryRow, checkpoint: Checkpoint): Promise<void> {
      await db.transaction(async (tx) => {
        await replaceBillSummary(tx, schema, summaryRunId, row);
        await saveCheckpoint(tx, schema, checkpoint, summaryRunId);
      });
    },

    async writeFindings(findingsRunId: string, findings: readonly Finding[]): Promise<void> {
      await db.transaction((tx) => insertRows(tx, schema.table('findings'), FINDING_COLUMNS, findings, { run_id: escapeText(findingsRunId) }));
    },

    async finishRun(finishedRunId: string, status: RunStatus, counts: Record<string, number>): Promise<void> {
      await db.transaction((tx) => finishRun(tx, schema, finishedRunId, status, counts));
    },
  };
}
