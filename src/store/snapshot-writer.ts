import type { AssetRow, LedgerRow, PaymentRow, SummaryBucketRow, WalletRow } from '../normalize/rows.js';
import type { Finding } from '../reconcile/results.js';
import { AppError } from '../util/errors.js';
import { loadCheckpoints, saveCheckpoint } from './checkpoints.js';
import type { Db, Queryable } from './db.js';
import { insertRows } from './insert-rows.js';
import { mergeSql, mergeWithHistorySql } from './merge-sql.js';
import type { Checkpoint, RunInfo, RunStatus, SnapshotWriter, WriteStats } from './ports.js';
import { finishRun, insertRun } from './runs.js';
import type { StoreSchema } from './schema.js';
import { dedupeByKey, stageRows, stageTable } from './stage.js';
import { ASSETS, BALANCES, FINDING_COLUMNS, LEDGER, PAYMENT_HISTORY_FIELDS, PAYMENTS, SUMMARY_COLUMNS, WALLETS, type StoredBalance, type StoredWallet, type TableSpec } from './tables.js';
import { escapeText } from './text-escape.js';

/**
 * The Postgres snapshot behind ports.ts `SnapshotWriter`: one writer per run (it remembers the
 * run started by `beginRun`). Each page is one transaction: COPY into a staging table, one
 * set-based upsert that writes only rows that changed (with a history row per change of a
 * payment's status, amounts or fees), and the stream's checkpoint. Re-reading a window that did
 * not change writes nothing but the checkpoint.
 */
export interface PostgresSnapshotWriter extends SnapshotWriter {
  /** the run begun by `beginRun`, or null before */
  readonly runId: string | null;
}

interface MergeCounts {
  inserted: number;
  updated: number;
  history?: number;
}

async function merge<R>(tx: Queryable, schema: StoreSchema, spec: TableSpec<R>, rows: readonly R[], runId: string | null, withHistory = false): Promise<WriteStats> {
  const unique = dedupeByKey(spec, rows);
  if (unique.length === 0) return { inserted: 0, updated: 0, unchanged: rows.length };
  await stageRows(tx, spec, unique);
  const sql = withHistory
    ? mergeWithHistorySql(schema, spec, { table: 'payment_history', fields: PAYMENT_HISTORY_FIELDS }, 'updated_at')
    : mergeSql(schema, spec);
  const params = spec.tracksRuns || withHistory ? [runId === null ? null : escapeText(runId)] : [];
  const { rows: [counts] } = await tx.query<MergeCounts>(sql, params);
  const inserted = counts?.inserted ?? 0;
  const updated = counts?.updated ?? 0;
  const stats: WriteStats = { inserted, updated, unchanged: rows.length - inserted - updated };
  if (counts?.history !== undefined) stats.history = counts.history;
  return stats;
}

export function createSnapshotWriter(db: Db, schema: StoreSchema): PostgresSnapshotWriter {
  let runId: string | null = null;

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
      return db.transaction(async (tx) => {
        const wallets: StoredWallet[] = [];
        const balances: StoredBalance[] = [];
        for (const { balances: walletBalances, ...wallet } of dedupeByKey(WALLETS as TableSpec<WalletRow>, rows)) {
          wallets.push(wallet);
          walletBalances.forEach((balance, position) => balances.push({ ...balance, organization_id: wallet.organization_id, wallet_id: wallet.wallet_id, position }));
        }
        const stats = await merge(tx, schema, WALLETS, wallets, runId);
        await merge(tx, schema, BALANCES, balances, null);
        // A currency the wallet no longer reports is no longer a balance of it. (Staging an
        // empty list only makes sure the staging table exists when no wallet had balances.)
        await stageRows(tx, BALANCES, []);
        await tx.query(
          `DELETE FROM ${schema.table('wallet_balances')} b
           WHERE (b.organization_id, b.wallet_id) IN (SELECT organization_id, wallet_id FROM ${stageTable(WALLETS)})
             AND NOT EXISTS (SELECT 1 FROM ${stageTable(BALANCES)} s
                             WHERE s.organization_id = b.organization_id AND s.wallet_id = b.wallet_id AND s.currency = b.currency)`,
        );
        return { ...stats, unchanged: rows.length - stats.inserted - stats.updated };
      });
    },

    upsertAssets(rows: readonly AssetRow[]): Promise<WriteStats> {
      return db.transaction((tx) => merge(tx, schema, ASSETS, rows, runId));
    },

    async writePaymentsPage(rows: readonly PaymentRow[], checkpoint: Checkpoint): Promise<WriteStats> {
      const run = requireRun('writePaymentsPage');
      return db.transaction(async (tx) => {
        const stats = await merge(tx, schema, PAYMENTS, rows, run, true);
        await saveCheckpoint(tx, schema, checkpoint, run);
        return stats;
      });
    },

    async writeLedgerPage(rows: readonly LedgerRow[], checkpoint: Checkpoint): Promise<WriteStats> {
      const run = requireRun('writeLedgerPage');
      return db.transaction(async (tx) => {
        const stats = await merge(tx, schema, LEDGER, rows, run);
        await saveCheckpoint(tx, schema, checkpoint, run);
        return stats;
      });
    },

    async writeSummaries(summaryRunId: string, rows: readonly SummaryBucketRow[], checkpoint: Checkpoint): Promise<void> {
      await db.transaction(async (tx) => {
        // Rewriting an environment's buckets within one run replaces them (a retried stream).
        const environments = [...new Set(rows.map((row) => escapeText(row.environment_id)))];
        await tx.query(`DELETE FROM ${schema.table('summary_buckets')} WHERE run_id = $1 AND environment_id = ANY($2::text[])`, [escapeText(summaryRunId), environments]);
        await insertRows(tx, schema.table('summary_buckets'), SUMMARY_COLUMNS, rows, { run_id: escapeText(summaryRunId) });
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
