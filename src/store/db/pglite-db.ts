import path from 'node:path';
import { PGlite, type Transaction } from '@electric-sql/pglite';
import type { Db, QueryResult, Queryable, SqlParam } from './db.js';
import { acquireFileLock, describeHolder, type FileLock } from './lock-file.js';

export interface EmbeddedOptions {
  /** payexport's data folder (the engine's files go to `<dataDir>/pgdata`); null = in memory */
  dataDir: string | null;
}

/** Same value conventions as the pg adapter (db.ts): int8, numeric, date/time and json as text. */
const identity = (value: string): string => value;
const TEXT_PARSERS = Object.fromEntries([20, 1700, 1082, 1083, 1114, 1184, 1266, 1186, 114, 3802].map((oid) => [oid, identity]));

type PgliteRunner = Pick<PGlite, 'query' | 'exec'> | Pick<Transaction, 'query' | 'exec'>;

function queryable(runner: PgliteRunner): Queryable {
  return {
    async query<R extends object>(sql: string, params?: readonly SqlParam[]): Promise<QueryResult<R>> {
      const result = await runner.query<R>(sql, params ? [...params] : undefined);
      return { rows: result.rows, rowCount: result.affectedRows ?? result.rows.length };
    },
    async execScript(sql: string): Promise<void> {
      await runner.exec(sql);
    },
    // In process, COPY reads the virtual file /dev/blob: 100k rows in ~0.1 s (docs/measurements.md#embedded-postgres).
    // COPY FROM STDIN over pglite-socket breaks the server, so this is the only bulk path.
    async copyFrom(table: string, columns: readonly string[], chunks: Iterable<string>): Promise<number> {
      const result = await runner.query(`COPY ${table} (${columns.join(', ')}) FROM '/dev/blob'`, [], { blob: new Blob(typeof chunks === 'string' ? [chunks] : [...chunks]) });
      return result.affectedRows ?? 0;
    },
  };
}

/** The data folder's lock: two processes must never open one PGlite data folder. */
export function embeddedLockPath(dataDir: string): string {
  return path.join(dataDir, 'embedded.lock');
}

/**
 * Opens PostgreSQL-in-WebAssembly (PGlite, PostgreSQL 18) in this process: no server, no install.
 * A fresh folder takes ~5 s (initdb runs), reopening well under a second. One engine per process
 * and folder; access is serialized by PGlite itself (a transaction holds it exclusively).
 */
export async function openEmbedded(options: EmbeddedOptions): Promise<Db> {
  const dataDir = options.dataDir === null ? null : path.resolve(options.dataDir);
  let lock: FileLock | null = null;
  if (dataDir !== null) {
    lock = await acquireFileLock(embeddedLockPath(dataDir), 'embedded database', (holder) =>
      `the embedded database in ${dataDir} is in use by ${describeHolder(holder)} (one process at a time); try again when it finishes`);
  }
  let engine: PGlite;
  try {
    engine = await PGlite.create({
      ...(dataDir === null ? {} : { dataDir: path.join(dataDir, 'pgdata') }),
      parsers: TEXT_PARSERS,
    });
  } catch (error) {
    await lock?.release();
    throw error;
  }
  const base = queryable(engine);
  return {
    engine: 'pglite',
    target: dataDir === null ? 'embedded database (in memory)' : `embedded database in ${dataDir}`,
    dataDir,
    query: base.query,
    execScript: base.execScript,
    copyFrom: base.copyFrom,
    transaction: <T>(fn: (tx: Queryable) => Promise<T>): Promise<T> => engine.transaction((tx) => fn(queryable(tx))),
    async close(): Promise<void> {
      try {
        if (!engine.closed) await engine.close();
      } finally {
        await lock?.release();
      }
    },
  };
}
