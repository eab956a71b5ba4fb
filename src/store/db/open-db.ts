import type { Db } from './db.js';
import { openPostgres } from './pg-db.js';
import { openEmbedded } from './pglite-db.js';

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

/** docs/contracts.md#common-options `--database-url`: a real server when given, else the embedded engine with zero setup. */
export function openDb(options: OpenDbOptions): Promise<Db> {
  if (options.databaseUrl) {
    return openPostgres({
      url: options.databaseUrl,
      ...(options.user === undefined ? {} : { user: options.user }),
      ...(options.lockTimeoutMs === undefined ? {} : { lockTimeoutMs: options.lockTimeoutMs }),
      ...(options.statementTimeoutMs === undefined ? {} : { statementTimeoutMs: options.statementTimeoutMs }),
    });
  }
  return openEmbedded({ dataDir: options.dataDir === undefined ? 'data' : options.dataDir });
}
