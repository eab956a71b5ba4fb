import { BILL_SUMMARY_COLUMNS, SUMMARY_BUCKET_COLUMNS, type AssetRow, type BillRecord, type BillSummaryRow, type LedgerRow, type PaymentRow, type SummaryBucketRow, type WalletRow } from '../model/rows.js';
import { BILL_HISTORY, BILL_LINE_ITEMS, BILLS } from './sql/bill-tables.js';
import { FINDING_COLUMNS, type Finding } from '../model/results.js';
import { AppError } from '../util/errors.js';
import { faultPoint } from '../util/fault-points.js';
import { createCommitGroup } from './commit-group.js';
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

/** One page as a stream hands it in: its rows, the stream's checkpoint after it, its run. */
interface PageWrite<R = unknown> {
  spec: TableSpec<R>;
  rows: readonly R[];
  checkpoint: Checkpoint;
  run: string;
  history?: LoadOptions['history'];
}

/**
 * Pages per group commit (commit-group.ts) and rows per group: a group is one transaction, so its
 * rows are held until it commits; eight streams' pages of 100 fit in one.
 */
const GROUP_PAGES = 16;
const GROUP_ROWS = 2000;

/** A group whose pages cannot go together: a key in two of its pages. Its transaction rolls back. */
class KeyInTwoPages extends Error {}

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
  let pagesInTransaction = 0;

  /**
   * Whether a stream's last page was new rows only, so that its next page is tried as new too
   * (below). A stream's first page goes as the last page of its table went, whichever stream
   * wrote it: in a first pull every wallet's ledger is new from its first page on.
   */
  const freshStreams = new Map<string, boolean>();
  const freshTables = new Map<string, boolean>();
  const expectsNew = (page: PageWrite): boolean => freshStreams.get(page.checkpoint.stream) ?? freshTables.get(page.spec.table) ?? false;
  const remember = (page: PageWrite, written: WriteStats): void => {
    // an empty page (a stream's end) says nothing either way
    if (page.rows.length === 0) return;
    const allNew = written.updated === 0 && written.unchanged === 0;
    freshStreams.set(page.checkpoint.stream, allNew);
    freshTables.set(page.spec.table, allNew);
  };

  /**
   * One page in one transaction with its checkpoint. A page of a stream whose previous page was
   * all new (a first pull, or the new end of a nightly one) skips the lookup of stored hashes and
   * is COPied as new; if one of its keys exists after all (unique violation), the transaction
   * rolls back and the page is written again the usual way, with the lookup. If a concurrent
   * writer inserted one of the page's new keys first (unique violation on that way too), the page
   * is retried once through staging + upsert, which merges with whatever is there.
   */
  const writeAlone = async (page: PageWrite): Promise<WriteStats> => {
    const attempt = (way: 'assumeNew' | 'lookup' | 'viaStaging'): Promise<WriteStats> =>
      // A page commit need not wait for its WAL flush: it holds its own checkpoint, so a server
      // crash that loses the last pages' commits rewinds the stream to a checkpoint that is
      // still there, and the rerun reads those pages again (idempotent). The run's final
      // commit (finishRun) is synchronous and flushes all of them. Nothing else changes.
      db.transaction(
        async (tx) => {
          const stats = await loadRows(tx, schema, page.spec, page.rows, { runId: escapeText(page.run), assumeNew: way === 'assumeNew', viaStaging: way === 'viaStaging', ...(page.history ? { history: page.history } : {}) });
          faultPoint('store:commit', { pages: ++pagesInTransaction });
          await saveCheckpoint(tx, schema, page.checkpoint, page.run);
          return stats;
        },
        { asyncCommit: true },
      );
    const ways = expectsNew(page) ? (['assumeNew', 'lookup', 'viaStaging'] as const) : (['lookup', 'viaStaging'] as const);
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
    remember(page, written);
    return written;
  };

  /**
   * Pages expected to be new, several in one transaction: each table's rows in one COPY (with
   * their history rows), then each page's checkpoint in the order the pages came. A stored key
   * (unique violation) or a key in two of the group's pages rolls the group back, and each of its
   * pages is written alone (`writeAlone`, which finds out which rows are new).
   */
  const writeGroup = async (pages: readonly PageWrite[]): Promise<WriteStats[]> => {
    const written = await db.transaction(
      async (tx) => {
        const unique = pages.map((page) => dedupeByKey(page.spec, page.rows));
        const tables = new Map<TableSpec<unknown>, { page: PageWrite; rows: unknown[] }[]>();
        pages.forEach((page, index) => {
          const entries = tables.get(page.spec) ?? [];
          entries.push({ page, rows: unique[index] as unknown[] });
          tables.set(page.spec, entries);
        });
        for (const [spec, entries] of tables) {
          const rows = entries.flatMap((entry) => entry.rows);
          const history = entries[0]?.page.history;
          const stats = await loadRows(tx, schema, spec, rows, { runId: escapeText(entries[0]?.page.run ?? ''), assumeNew: true, ...(history ? { history } : {}) });
          if (stats.inserted !== rows.length) throw new KeyInTwoPages();
        }
        for (const page of pages) {
          faultPoint('store:commit', { pages: ++pagesInTransaction });
          await saveCheckpoint(tx, schema, page.checkpoint, page.run);
        }
        return pages.map((page, index) => {
          const inserted = (unique[index] as unknown[]).length;
          const stats: WriteStats = { inserted, updated: 0, unchanged: page.rows.length - inserted };
          if (page.history) stats.history = inserted;
          return stats;
        });
      },
      { asyncCommit: true },
    );
    // as for a page alone: what a page was is known once it is committed
    pages.forEach((page, index) => remember(page, written[index] as WriteStats));
    return written;
  };

  const group = createCommitGroup<PageWrite, WriteStats>({
    writeGroup,
    writeOne: writeAlone,
    splitOn: (error) => error instanceof KeyInTwoPages || isUniqueViolation(error),
    maxItems: GROUP_PAGES,
    weight: (page) => page.rows.length,
    maxWeight: GROUP_ROWS,
  });
  const groupPages = options.groupPages ?? db.engine === 'pglite';

  const writePage = <R>(spec: TableSpec<R>, rows: readonly R[], checkpoint: Checkpoint, run: string, history?: LoadOptions['history']): Promise<WriteStats> => {
    const page: PageWrite = { spec: spec as unknown as TableSpec<unknown>, rows, checkpoint, run, ...(history ? { history } : {}) };
    return groupPages && expectsNew(page) ? group.submit(page) : writeAlone(page);
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
