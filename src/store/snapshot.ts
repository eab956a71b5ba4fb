/**
 * The store's one face for jobs: `openSnapshot` opens where a run keeps its snapshot — a Postgres
 * server (`--database-url` / DATABASE_URL), the embedded engine under `data/` (no URL: zero
 * setup), or, with `--no-db`, a spool of JSON-lines files under the output folder that lives only
 * until the run succeeds — behind the model/ports.ts `Snapshot`. `peekSnapshot` reads without
 * changing anything.
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { LoadedConfig } from '../config/load.js';
import { reportRoot } from '../config/output-root.js';
import { redactDatabaseUrl } from '../config/secrets.js';
import type { Snapshot } from '../model/ports.js';
import type { WalletRow } from '../model/rows.js';
import type { Window } from '../model/window.js';
import { databaseSnapshot, openDatabaseSnapshot } from './database-snapshot.js';
import { openDb } from './db/open-db.js';
import { spoolSnapshot } from './spool/spool-snapshot.js';

export type { ClosePeriodInput, Snapshot } from '../model/ports.js';

export interface OpenSnapshotOptions {
  loaded: LoadedConfig;
  cwd: string;
  /** `--no-db` spool location: `<report root>/.state/<job>/<period>` */
  job: string;
  period: string;
}

export async function openSnapshot(options: OpenSnapshotOptions): Promise<Snapshot> {
  const { config, secrets } = options.loaded;
  // the spool lives under the run's report root: with output.perOrganization, its organization's folder
  if (!config.db) return spoolSnapshot(join(reportRoot(config, options.cwd).root, '.state'), options.job, options.period);
  const databaseUrl = secrets.databaseUrl;
  const dataDir = resolve(options.cwd, config.dataDir);
  return openDatabaseSnapshot({
    schema: config.dbSchema,
    ...(databaseUrl ? { databaseUrl, lockTimeoutMs: config.dbLockTimeoutMs, statementTimeoutMs: config.dbStatementTimeoutMs } : { dataDir }),
    target: databaseUrl ? redactDatabaseUrl(databaseUrl) : dataDir,
  });
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
    const { source } = databaseSnapshot(db, { schema: config.dbSchema });
    const wallets = await source.wallets(options.organizationId, options.walletIds.length > 0 ? options.walletIds : undefined);
    const summaries = await source.summaries(options.organizationId, options.window);
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
