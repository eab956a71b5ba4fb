import { BILL_SUMMARY_COLUMNS, SUMMARY_BUCKET_COLUMNS, type AssetRow, type BillRecord, type BillSummaryRow, type LedgerRow, type PaymentRow, type SummaryBucketRow, type WalletRow } from '../model/rows.js';
import { BILL_HISTORY, BILL_LINE_ITEMS, BILLS } from './sql/bill-tables.js';
import { FINDING_COLUMNS, type Finding } from '../model/results.js';
import { AppError } from '../util/errors.js';
import { faultPoint } from '../util/fault-points.js';
import { loadCheckpoints, saveCheckpoint } from './sql/checkpoints.js';
import type { Db, Queryable } from './db/db.js';
import { insertRows } from './sql/insert-rows.js';
import { isUniqueViolation, loadRows, type LoadOptions } from './sql/load-rows.js';
import type { Checkpoint, RunInfo, RunStatus, SnapshotWriter, WriteStats } from '../model/ports.js';
import { finishRun, insertRun } from './sql/runs.js';
import type { StoreSchema } from './db/schema.js';
import { dedupeByKey, stageRows, stageTable } from './sql/stage.js';
import { ASSETS, BALANCES, LEDGER, PAYMENT_HISTORY_FIELDS, PAYMENTS, WALLETS, type StoredBalance, type StoredWallet, type TableSpec } from './sql/tables.js';
import { escapeText } from './encoding/text-escape.js';
import { summarySource, summarySourceSql } from './sql/summary-source.js';

/**
 * The Postgres snapshot behind model/ports.ts `SnapshotWriter`: one writer per run (it remembers the
 * run started by `beginRun`). Each page is one transaction holding its rows and the stream's
 * checkpoint (sql/load-rows.ts: new rows COPied in, changed rows staged and upserted with a history
 * row per change of a payment's status, amounts or fees, unchanged rows left alone). Re-reading a
 * window that did not change writes nothing but the checkpoint.
 */
export interface PostgresSnapshotWriter extends SnapshotWriter {
  /** the run begun by `beginRun`, or null before */
  readonly runId: string | null;
}

/** Where payment changes are recorded, for every writer of payments (runs and the listener). */
export const PAYMENT_HISTORY = { table: 'payment_history', fields: PAYMENT_HISTORY_FIELDS, versionField: 'updated_at' } as const;

function merge<R>(tx: Queryable, schema: StoreSchema, spec: TableSpec<R>, rows: readonly R[], runId: string | null): Promise<WriteStats> {
  return loadRows(tx, schema, spec, rows, { runId: runId === null ? null : escapeText(runId) });
}

export function createSnapshotWriter(db: Db, schema: StoreSchema): PostgresSnapshotWriter {
  let runId: string | null = null;
  let pagesInTransaction = 0;

  /**
   * Whether a stream's last page was new rows only, so that its next page is tried as new too
   * (below). A stream's first page goes as the last page of its table went, whichever stream
   * wrote it: in a first pull every wallet's ledger is new from its first page on.
   */
  const freshStreams = new Map<string, boolean>();
  const freshTables = new Map<string, boolean>();

  /**
   * One page in one transaction with its checkpoint. A page of a stream whose previous page was
   * all new (a first pull, or the new end of a nightly one) skips the lookup of stored hashes and
   * is COPied as new; if one of its keys exists after all (unique violation), the transaction
   * rolls back and the page is written again the usual way, with the lookup. If a concurrent
   * writer inserted one of the page's new keys first (unique violation on that way too), the page
   * is retried once through staging + upsert, which merges with whatever is there.
   */
  const writePage = async <R>(spec: TableSpec<R>, rows: readonly R[], checkpoint: Checkpoint, run: string, history?: LoadOptions['history']): Promise<WriteStats> => {
    const attempt = (way: 'assumeNew' | 'lookup' | 'viaStaging'): Promise<WriteStats> =>
      // A page commit need not wait for its WAL flush: it holds its own checkpoint, so a server
      // crash that loses the last pages' commits rewinds the stream to a checkpoint that is
      // still there, and the rerun reads those pages again (idempotent). The run's final
      // commit (finishRun) is synchronous and flushes all of them. Nothing else changes.
      db.transaction(
        async (tx) => {
          const stats = await loadRows(tx, schema, spec, rows, { runId: escapeText(run), assumeNew: way === 'assumeNew', viaStaging: way === 'viaStaging', ...(history ? { history } : {}) });
          faultPoint('store:commit', { pages: ++pagesInTransaction });
          await saveCheckpoint(tx, schema, checkpoint, run);
          return stats;
        },
        { asyncCommit: true },
      );
    const stream = checkpoint.stream;
    const expectNew = freshStreams.get(stream) ?? freshTables.get(spec.table) ?? false;
    const ways = expectNew ? (['assumeNew', 'lookup', 'viaStaging'] as const) : (['lookup', 'viaStaging'] as const);
    let stats: WriteStats | undefined;
    for (const [index, way] of ways.entries()) {
      try {
        stats = await attempt(way);
        break;
      } catch (error) {
        if (!isUniqueViolation(error) || index === ways.length - 1) throw error;
      }
    }
    const written = stats as WriteStats;
    // an empty page (a stream's end) says nothing either way
    if (rows.length > 0) {
      const allNew = written.updated === 0 && written.unchanged === 0;
      freshStreams.set(stream, allNew);
      freshTables.set(spec.table, allNew);
    }
    return written;
  };

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
      return writePage(PAYMENTS, rows, checkpoint, requireRun('writePaymentsPage'), PAYMENT_HISTORY);
    },

    async writeLedgerPage(rows: readonly LedgerRow[], checkpoint: Checkpoint): Promise<WriteStats> {
      return writePage(LEDGER, rows, checkpoint, requireRun('writeLedgerPage'));
    },

    async writeSummaries(summaryRunId: string, rows: readonly SummaryBucketRow[], checkpoint: Checkpoint): Promise<void> {
      await db.transaction(async (tx) => {
        // Rewriting a summary within one run replaces it (a retried stream) — that summary only:
        // the wallet summaries of one environment are separate streams and must not erase each other.
        const sources = new Map<string, [string, string]>();
        for (const row of rows) {
          const source = summarySource(row);
          sources.set(source.join('\u0000'), source);
        }
        await tx.query(
          `DELETE FROM ${schema.table('summary_buckets')} b
           WHERE b.run_id = $1 AND (b.environment_id, ${summarySourceSql('b')}) IN (SELECT * FROM unnest($2::text[], $3::text[]))`,
          [escapeText(summaryRunId), [...sources.values()].map((s) => s[0]), [...sources.values()].map((s) => s[1])],
        );
        await insertRows(tx, schema.table('summary_buckets'), SUMMARY_BUCKET_COLUMNS, rows, { run_id: escapeText(summaryRunId) });
        await saveCheckpoint(tx, schema, checkpoint, summaryRunId);
      });
    },

    async writeBillsPage(records: readonly BillRecord[], checkpoint: Checkpoint): Promise<WriteStats> {
      const run = requireRun('writeBillsPage');
      return db.transaction(async (tx) => {
        const stats = await loadRows(tx, schema, BILLS, records.map((r) => r.bill), { runId: escapeText(run), history: BILL_HISTORY });
        await loadRows(tx, schema, BILL_LINE_ITEMS, records.flatMap((r) => r.line_items), { runId: null });
        // a line item the bill no longer lists is no longer part of it
        await tx.query(
          `DELETE FROM ${schema.table('bill_line_items')} i USING unnest($2::text[], $3::int[]) AS u(bill_id, n)
           WHERE i.organization_id = $1 AND i.bill_id = u.bill_id AND i.position >= u.n`,
          [escapeText(records[0]?.bill.organization_id ?? ''), records.map((r) => escapeText(r.bill.bill_id)), records.map((r) => String(r.line_items.length))],
        );
        await saveCheckpoint(tx, schema, checkpoint, run);
        return stats;
      }, { asyncCommit: true });
    },

    async writeBillSummary(summaryRunId: string, row: BillSummaryRow, checkpoint: Checkpoint): Promise<void> {
      await db.transaction(async (tx) => {
        await tx.query(`DELETE FROM ${schema.table('bill_summaries')} WHERE run_id = $1 AND line_of_credit_id = $2`, [escapeText(summaryRunId), escapeText(row.line_of_credit_id)]);
        await insertRows(tx, schema.table('bill_summaries'), BILL_SUMMARY_COLUMNS, [row], { run_id: escapeText(summaryRunId) });
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
