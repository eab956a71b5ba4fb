import type { Db } from './db.js';

export interface OpenDbOptions {
  /** a Postgres URL; absent or empty → the embedded engine in `dataDir` */
  databaseUrl?: string | null;
  /** payexport's data folder for the embedded engine (default `data`); null = in memory */
  dataDir?: string | null;
  /** role for a URL that names none (pg-db.ts) */
  user?: string;
  /** a Postgres server's lock_timeout and statement_timeout (pg-db.ts defaults when absent) */
  lockTimeoutMs?: number;
  statementTimeoutMs?: number;
}

/**
 * docs/contracts.md#common-options `--database-url`: a real server when given, else the embedded engine with zero setup.
 * Each engine's driver is loaded when it is opened: a `--no-db` run, or one on the other engine,
 * does not pay for loading it at every start.
 */
export async function openDb(options: OpenDbOptions): Promise<Db> {
  if (options.databaseUrl) {
    const { openPostgres } = await import('./pg-db.js');
    return openPostgres({
      url: options.databaseUrl,
      ...(options.user === undefined ? {} : { user: options.user }),
      ...(options.lockTimeoutMs === undefined ? {} : { lockTimeoutMs: options.lockTimeoutMs }),
      ...(options.statementTimeoutMs === undefined ? {} : { statementTimeoutMs: options.statementTimeoutMs }),
    });
  }
  const { openEmbedded } = await import('./pglite-db.js');
  return openEmbedded({ dataDir: options.dataDir === undefined ? 'data' : options.dataDir });
}
