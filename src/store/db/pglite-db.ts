import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { readFile, rename, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import type { Db, QueryResult, Queryable, SqlParam, TransactionOptions } from './db.js';
import { acquireFileLock, describeHolder, type FileLock } from './lock-file.js';
import { untarGz } from './untar.js';

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
export const EMBEDDED_START_PARAMS: readonly string[] = [...PGlite.defaultStartParams, '-c', 'shared_buffers=16MB', '-c', 'maintenance_work_mem=16MB'];

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
 * at once: 820–910 MB peak RSS, past the 512 MB the job promises. The build's template is unpacked
 * instead (no engine involved, well under a second). It is unpacked beside the folder and renamed
 * into place, so a run killed meanwhile leaves no half-made data folder (the caller holds the lock).
 */
export async function createFromTemplate(pgdata: string, template: string): Promise<void> {
  const staging = `${pgdata}.new`;
  await rm(staging, { recursive: true, force: true });
  untarGz(await readFile(template), staging);
  await rename(staging, pgdata);
}

/** Same value conventions as the pg adapter (db.ts): int8, numeric, date/time and json as text. */
const identity = (value: string): string => value;
export const TEXT_PARSERS = Object.fromEntries([20, 1700, 1082, 1083, 1114, 1184, 1266, 1186, 114, 3802].map((oid) => [oid, identity]));

/** True when the folder is absent or empty; a folder left non-empty by something else keeps PGlite's own handling. */
export function freshFolder(pgdata: string): boolean {
  return !existsSync(pgdata) || readdirSync(pgdata).length === 0;
}

/** What the engine's thread (pglite-worker.ts) is started with. */
export interface WorkerSetup {
  /** the engine's folder; null = in memory */
  pgdata: string | null;
  template: string | null;
}

/** Requests to the engine's thread; `tx` null = outside any transaction. */
export type WorkerRequest = { id: number } & (
  | { op: 'ready' | 'close' }
  | { op: 'query'; tx: number | null; sql: string; params: SqlParam[] | undefined }
  | { op: 'exec'; tx: number | null; sql: string }
  | { op: 'copy'; tx: number | null; sql: string; text: string }
  | { op: 'begin'; asyncCommit: boolean }
  | { op: 'end'; tx: number; commit: boolean }
);
export type WorkerReply = { id: number; ok: true; value: unknown } | { id: number; ok: false; error: Record<string, unknown> };
type Call = WorkerRequest extends infer R ? (R extends { id: number } ? Omit<R, 'id'> : never) : never;

/**
 * The thread's own JavaScript heap holds only the rows of the statement in hand (at most a report
 * batch); V8's default young generation for it (3 × 16 MB) sat mostly empty yet resident.
 */
const THREAD_LIMITS = { maxYoungGenerationSizeMb: 8 };

/**
 * The engine's thread and the calls waiting on it. The worker is referenced only while a call is
 * pending, so an idle engine never keeps the process alive (as the in-process engine did not).
 */
function engineThread(setup: WorkerSetup): { call: (request: Call) => Promise<unknown>; terminate: () => Promise<number> } {
  const entry = new URL(import.meta.url.endsWith('.ts') ? './pglite-worker.ts' : './pglite-worker.js', import.meta.url);
  // Run from the sources (tests, tsx), the thread registers the TypeScript loader before its entry.
  const worker = entry.pathname.endsWith('.ts')
    ? new Worker(`import(${JSON.stringify(pathToFileURL(createRequire(import.meta.url).resolve('tsx/esm/api')).href.replace(/\.cjs$/, '.mjs'))}).then((tsx) => { tsx.register(); return import(${JSON.stringify(entry.href)}); });`, { eval: true, workerData: setup, resourceLimits: THREAD_LIMITS })
    : new Worker(entry, { workerData: setup, resourceLimits: THREAD_LIMITS });
  worker.unref();
  const pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: unknown) => void }>();
  let nextId = 1;
  const failAll = (error: unknown): void => {
    for (const waiter of pending.values()) waiter.reject(error);
    pending.clear();
  };
  worker.on('message', (reply: WorkerReply) => {
    const waiter = pending.get(reply.id);
    if (waiter === undefined) return;
    pending.delete(reply.id);
    if (pending.size === 0) worker.unref();
    if (reply.ok) waiter.resolve(reply.value);
    else waiter.reject(Object.assign(new Error(String(reply.error.message)), reply.error));
  });
  worker.on('error', failAll);
  worker.on('exit', (code) => failAll(new Error(`the embedded engine's thread exited (${code})`)));
  return {
    call(request: Call): Promise<unknown> {
      const id = nextId++;
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve, reject });
        worker.ref();
        worker.postMessage({ ...request, id });
      });
    },
    terminate: () => worker.terminate(),
  };
}

function queryable(call: (request: Call) => Promise<unknown>, tx: number | null): Queryable {
  return {
    async query<R extends object>(sql: string, params?: readonly SqlParam[]): Promise<QueryResult<R>> {
      return (await call({ op: 'query', tx, sql, params: params ? [...params] : undefined })) as QueryResult<R>;
    },
    async execScript(sql: string): Promise<void> {
      await call({ op: 'exec', tx, sql });
    },
    // COPY FROM STDIN over pglite-socket breaks the server, so the engine's /dev/blob is the only bulk path.
    async copyFrom(table: string, columns: readonly string[], chunks: Iterable<string>): Promise<number> {
      const text = typeof chunks === 'string' ? chunks : [...chunks].join('');
      return (await call({ op: 'copy', tx, sql: `COPY ${table} (${columns.join(', ')}) FROM '/dev/blob'`, text })) as number;
    },
  };
}

/** The data folder's lock: two processes must never open one PGlite data folder. */
export function embeddedLockPath(dataDir: string): string {
  return path.join(dataDir, 'embedded.lock');
}

/**
 * Opens PostgreSQL-in-WebAssembly (PGlite, PostgreSQL 18) in this process, on a thread of its own
 * (pglite-worker.ts): no server, no install. A fresh folder takes ~3 s from the build's template
 * (~5–10 s where initdb runs), reopening about a second. One engine per process and folder; access
 * is serialized by PGlite itself (a transaction holds it exclusively).
 */
export async function openEmbedded(options: EmbeddedOptions): Promise<Db> {
  // the job's heap growth, which matters most beside the engine's memory, is the CLI's start-up setting (platform/v8-flags.ts)
  const dataDir = options.dataDir === null ? null : path.resolve(options.dataDir);
  let lock: FileLock | null = null;
  if (dataDir !== null) {
    lock = await acquireFileLock(embeddedLockPath(dataDir), 'embedded database', (holder) =>
      `the embedded database in ${dataDir} is in use by ${describeHolder(holder)} (one process at a time); try again when it finishes`);
  }
  const pgdata = dataDir === null ? null : path.join(dataDir, 'pgdata');
  const thread = engineThread({ pgdata, template: options.template === undefined ? embeddedTemplatePath() : options.template });
  try {
    await thread.call({ op: 'ready' });
  } catch (error) {
    await thread.terminate();
    await lock?.release();
    throw error;
  }
  const base = queryable(thread.call, null);
  let closed = false;
  return {
    engine: 'pglite',
    target: dataDir === null ? 'embedded database (in memory)' : `embedded database in ${dataDir}`,
    dataDir,
    query: base.query,
    execScript: base.execScript,
    copyFrom: base.copyFrom,
    async transaction<T>(fn: (tx: Queryable) => Promise<T>, options?: TransactionOptions): Promise<T> {
      const tx = (await thread.call({ op: 'begin', asyncCommit: options?.asyncCommit === true })) as number;
      let result: T;
      try {
        result = await fn(queryable(thread.call, tx));
      } catch (error) {
        await thread.call({ op: 'end', tx, commit: false });
        throw error;
      }
      await thread.call({ op: 'end', tx, commit: true });
      return result;
    },
    async close(): Promise<void> {
      try {
        if (!closed) {
          closed = true;
          await thread.call({ op: 'close' });
          await thread.terminate();
        }
      } finally {
        await lock?.release();
      }
    },
  };
}
