import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { PGlite } from '@electric-sql/pglite';
import path from 'node:path';
import { acquireFileLock, describeHolder } from './lock-file.js';
import { embeddedLockPath } from './pglite-db.js';

/**
 * `payexport db shell`: the embedded database served on 127.0.0.1 for psql or any SQL client.
 * pglite-socket is safe with exactly ONE connection (docs/measurements.md#embedded-postgres: with more, sessions share one
 * backend and transactions, prepared statements and SET interfere), so `maxConnections` is 1.
 * Holds the data folder's lock like any other user of it: no job can open it meanwhile.
 */
export interface EmbeddedShell {
  host: string;
  port: number;
  /** a postgres:// URL for GUI clients (no password: the server accepts any) */
  url: string;
  /** the command line to print for the user */
  psqlCommand: string;
  close(): Promise<void>;
}

export async function serveEmbeddedForPsql(dataDir: string, port: number, host = '127.0.0.1'): Promise<EmbeddedShell> {
  const dir = path.resolve(dataDir);
  const lock = await acquireFileLock(embeddedLockPath(dir), 'db shell', (holder) =>
    `the embedded database in ${dir} is in use by ${describeHolder(holder)} (one process at a time); try again when it finishes`);
  let engine: PGlite | null = null;
  let server: PGLiteSocketServer | null = null;
  try {
    engine = await PGlite.create({ dataDir: path.join(dir, 'pgdata') });
    server = new PGLiteSocketServer({ db: engine, host, port, maxConnections: 1 });
    await server.start();
  } catch (error) {
    await server?.stop().catch(() => undefined);
    await engine?.close().catch(() => undefined);
    await lock.release();
    throw error;
  }
  const bound = server.getServerConn();
  const boundPort = Number(bound.slice(bound.lastIndexOf(':') + 1));
  const running = server;
  const db = engine;
  return {
    host,
    port: boundPort,
    url: `postgres://postgres@${host}:${boundPort}/postgres?sslmode=disable`,
    psqlCommand: `psql "host=${host} port=${boundPort} user=postgres dbname=postgres sslmode=disable"`,
    async close(): Promise<void> {
      try {
        await running.stop();
        await db.close();
      } finally {
        await lock.release();
      }
    },
  };
}
