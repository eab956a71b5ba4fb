/**
 * Where a run keeps its snapshot, behind one face: a Postgres server (`--database-url` /
 * DATABASE_URL), the embedded engine under `data/` (no URL: zero setup), or — with `--no-db` — a
 * spool of JSON-lines files under the output folder that lives only until the run succeeds.
 */
import { existsSync } from 'node:fs';
import { readFile, writeFile, rename } from 'node:fs/promises';
import { ensureFolder } from '../util/ensure-folder.js';
import { join, resolve } from 'node:path';
import type { LoadedConfig } from '../config/load.js';
import { redactDatabaseUrl } from '../config/secrets.js';
import type { WalletRow } from '../model/rows.js';
import { acquireFileLock, describeHolder } from './db/lock-file.js';
import type { ReportSource, SnapshotWriter } from '../model/ports.js';
import type { Window } from '../model/window.js';
import { SpoolStore } from './spool/spool-store.js';
import { openDb } from './db/open-db.js';
import { createStore, openStore, type Store } from './database-snapshot.js';
import { minusDays } from '../model/period.js';
import type { JournalExports } from '../journal/export-ledger.js';
import { createJournalExports } from './sql/journal-exports.js';

export interface ClosedPeriodInput {
  organizationId: string;
  period: string;
  window: Window;
  runId: string;
}

export interface Snapshot {
  readonly kind: 'postgres' | 'embedded' | 'spool';
  /** where it lives, safe to print (password redacted) */
  readonly target: string;
  writer(): SnapshotWriter;
  readonly source: ReportSource;
  /** one run at a time per (organization, job); exit 75 when held */
  lock(organizationId: string, job: string): Promise<{ release(): Promise<void> }>;
  /** the ledger read's start for a wallet: the stored high-water mark minus the look-back, or null */
  ledgerStart(organizationId: string, wallet: WalletRow, lookbackDays: number): Promise<string | null>;
  orphanPaymentIds(organizationId: string, wallet: WalletRow, window: Window): Promise<string[]>;
  openPaymentIds(organizationId: string, wallet: WalletRow): Promise<string[]>;
  isPeriodClosed(organizationId: string, period: string): Promise<boolean>;
  closePeriod(input: ClosedPeriodInput): Promise<boolean>;
  /** what was exported of closed periods' journals (null on the spool: no record) */
  readonly journalExports: JournalExports | null;
  close(): Promise<void>;
}

export interface OpenSnapshotOptions {
  loaded: LoadedConfig;
  cwd: string;
  /** `--no-db` spool location: `<out>/.state/<job>/<period>` */
  job: string;
  period: string;
}

export async function openSnapshot(options: OpenSnapshotOptions): Promise<Snapshot> {
  const { config, secrets } = options.loaded;
  const outRoot = resolve(options.cwd, config.out);
  if (!config.db) return spoolSnapshot(join(outRoot, '.state'), options.job, options.period);
  const databaseUrl = secrets.databaseUrl;
  const store = await openStore({
    schema: config.dbSchema,
    ...(databaseUrl ? { databaseUrl } : { dataDir: resolve(options.cwd, config.dataDir) }),
  });
  return storeSnapshot(store, databaseUrl ? 'postgres' : 'embedded', databaseUrl ? redactDatabaseUrl(databaseUrl) : resolve(options.cwd, config.dataDir));
}

function storeSnapshot(store: Store, kind: 'postgres' | 'embedded', target: string): Snapshot {
  return {
    kind,
    target,
    writer: () => store.writer(),
    source: store.source,
    lock: (organizationId, job) => store.acquireRunLock(organizationId, job),
    async ledgerStart(organizationId, wallet, lookbackDays) {
      const high = await store.ledgerHighWater(organizationId, wallet.wallet_id);
      // Re-read the look-back: late-arriving entries with older effective times are caught, and upserts absorb the overlap.
      return high === null ? null : minusDays(high, lookbackDays);
    },
    orphanPaymentIds: (organizationId, wallet, window) => store.orphanPaymentIds(organizationId, wallet.wallet_id, window),
    async openPaymentIds(organizationId, wallet) {
      return (await store.openPayments(organizationId, { wallet_ids: [wallet.wallet_id] })).map((p) => p.payment_id);
    },
    isPeriodClosed: (organizationId, period) => store.isPeriodClosed(organizationId, period),
    closePeriod: (input) => store.closePeriod({ organization_id: input.organizationId, period: input.period, window: input.window, run_id: input.runId }),
    journalExports: createJournalExports(store.db, store.schema),
    close: () => store.close(),
  };
}

function spoolSnapshot(stateRoot: string, job: string, period: string): Snapshot {
  const spool = new SpoolStore(join(stateRoot, job, period));
  const closedFile = join(stateRoot, 'closed-periods.json');
  const readClosed = async (): Promise<Record<string, unknown>> => {
    try {
      return JSON.parse(await readFile(closedFile, 'utf8')) as Record<string, unknown>;
    } catch {
      return {};
    }
  };
  return {
    kind: 'spool',
    target: join(stateRoot, job, period),
    writer: () => spool,
    source: spool,
    journalExports: null,
    async lock(organizationId, lockJob) {
      return acquireFileLock(
        join(stateRoot, 'locks', `${lockJob.replace(/[^A-Za-z0-9._-]/g, '_')}.lock`),
        `${lockJob} ${organizationId}`,
        (holder) => `another ${lockJob} run is in progress (${describeHolder(holder)}); try again later`,
      );
    },
    // The spool is per run: the whole ledger is read every time.
    ledgerStart: async () => null,
    orphanPaymentIds: (organizationId, wallet, window) => spool.orphanPaymentIds(organizationId, wallet.wallet_id, window),
    // Without a database nothing is remembered between runs, so there is nothing to refresh.
    openPaymentIds: async () => [],
    async isPeriodClosed(organizationId, p) {
      return (await readClosed())[`${organizationId}/${p}`] !== undefined;
    },
    async closePeriod(input) {
      const closed = await readClosed();
      const key = `${input.organizationId}/${input.period}`;
      if (closed[key] !== undefined) return false;
      closed[key] = { window: input.window, run_id: input.runId, closed_at: new Date().toISOString() };
      await ensureFolder(stateRoot);
      await writeFile(`${closedFile}.tmp`, JSON.stringify(closed, null, 2));
      await rename(`${closedFile}.tmp`, closedFile);
      return true;
    },
    close: async () => undefined,
  };
}

export interface SnapshotPeek {
  /** null when there is no snapshot yet (no data folder, or a schema without tables) */
  wallets: WalletRow[] | null;
  summaries: number;
}

/**
 * What a `report --dry-run` can tell without changing anything: the snapshot's wallets and the
 * summary buckets stored for the window. No migration runs and no data folder is created.
 */
export async function peekSnapshot(options: { loaded: LoadedConfig; cwd: string; organizationId: string; walletIds: readonly string[]; window: Window }): Promise<SnapshotPeek> {
  const { config, secrets } = options.loaded;
  const dataDir = resolve(options.cwd, config.dataDir);
  if (!secrets.databaseUrl && !existsSync(dataDir)) return { wallets: null, summaries: 0 };
  const db = await openDb(secrets.databaseUrl ? { databaseUrl: secrets.databaseUrl } : { dataDir });
  try {
    const store = createStore(db, { schema: config.dbSchema });
    const wallets = await store.source.wallets(options.organizationId, options.walletIds.length > 0 ? options.walletIds : undefined);
    const summaries = await store.source.summaries(options.organizationId, options.window);
    return { wallets, summaries: summaries.length };
  } catch (error) {
    // 42P01 undefined_table, 3F000 invalid_schema_name: never migrated, so nothing pulled yet
    const code = (error as { code?: unknown }).code;
    if (code === '42P01' || code === '3F000') return { wallets: null, summaries: 0 };
    throw error;
  } finally {
    await db.close();
  }
}
