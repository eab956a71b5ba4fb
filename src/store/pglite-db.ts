import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { readFile, rename, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite, type Transaction } from '@electric-sql/pglite';
import type { Db, QueryResult, Queryable, SqlParam } from './db.js';
import { acquireFileLock, describeHolder, type FileLock } from './lock-file.js';

export interface EmbeddedOptions {
  /** payexport's data folder (the engine's files go to `<dataDir>/pgdata`); null = in memory */
  dataDir: string | null;
  /**
   * A gzipped tar of a freshly initialized data folder, unpacked instead of running initdb; default:
   * the one the build made for the installed PGlite (`embeddedTemplatePath`), else initdb runs.
   */
  template?: string | null;
}

/**
 * Settings of the embedded instance. Its WebAssembly heap only grows, so every buffer Postgres
 * fills stays resident until exit: shared_buffers (PGlite's initdb picks 160 MB) became 160 MB of
 * RSS by the end of a 100k run (docs/benchmarks.md#the-embedded-engine). The data folder's files sit
 * in the OS page cache anyway, so a smaller pool costs a copy per page, not a disk read.
 */
export const EMBEDDED_START_PARAMS: readonly string[] = [...PGlite.defaultStartParams, '-c', 'shared_buffers=32MB'];

/** The build's template for this PGlite version (scripts/embedded-template.mjs), or null when absent. */
export function embeddedTemplatePath(): string | null {
  const file = fileURLToPath(new URL(`./embedded-template-${pgliteVersion()}.tar.gz`, import.meta.url));
  return existsSync(file) ? file : null;
}

export function pgliteVersion(): string {
  const entry = createRequire(import.meta.url).resolve('@electric-sql/pglite');
  return (JSON.parse(readFileSync(path.join(path.dirname(entry), '..', 'package.json'), 'utf8')) as { version: string }).version;
}

/**
 * initdb inside PGlite holds a second engine, the initdb module and a copy of the first one's heap
 * at once: 820–910 MB peak RSS, past the 512 MB the job promises. Unpacking the build's template
 * peaks at ~400 MB and takes ~3 s instead of ~6–10 s. It is unpacked beside the folder and renamed
 * into place, so a run killed meanwhile leaves no half-made data folder (the caller holds the lock).
 */
async function createFromTemplate(pgdata: string, template: string): Promise<void> {
  const staging = `${pgdata}.new`;
  await rm(staging, { recursive: true, force: true });
  const engine = await PGlite.create({ dataDir: staging, loadDataDir: new Blob([await readFile(template)]), startParams: [...EMBEDDED_START_PARAMS] });
  await engine.close();
  await rename(staging, pgdata);
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
 * A fresh folder takes ~3 s from the build's template (~5–10 s where initdb runs), reopening about a second. One engine per process
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
    const pgdata = dataDir === null ? null : path.join(dataDir, 'pgdata');
    const template = options.template === undefined ? embeddedTemplatePath() : options.template;
    // A folder left non-empty by something else keeps PGlite's own handling (initdb into it).
    if (pgdata !== null && template !== null && (!existsSync(pgdata) || readdirSync(pgdata).length === 0)) await createFromTemplate(pgdata, template);
    engine = await PGlite.create({
      ...(pgdata === null ? {} : { dataDir: pgdata }),
      ...(pgdata === null && template !== null ? { loadDataDir: new Blob([await readFile(template)]) } : {}),
      startParams: [...EMBEDDED_START_PARAMS],
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
