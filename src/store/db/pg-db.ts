import { createHash } from 'node:crypto';
import os from 'node:os';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import pg from 'pg';
import { from as copyFromStdin } from 'pg-copy-streams';
import type { Db, QueryOptions, QueryResult, Queryable, Session, SqlParam, TransactionOptions } from './db.js';
import { classifyDbError } from './db-errors.js';
import { redactDatabaseUrl } from '../../config/secrets.js';

export interface PostgresOptions {
  /** Postgres URL; its password never appears in messages */
  url: string;
  /** role when the URL names none; default: the OS account (libpq's rule; `USER` may be empty) */
  user?: string;
  /** pooled connections, default 4 */
  poolSize?: number;
  connectTimeoutMs?: number;
  /** aborts any statement running longer; default 15 min (0 = off) */
  statementTimeoutMs?: number;
  /** waits for row/table locks bounded by this; default 60 s */
  lockTimeoutMs?: number;
  /** a hung client's open transaction is killed after this, releasing its locks; default 10 min */
  idleInTransactionTimeoutMs?: number;
}

/**
 * Results as text for int8 (20), numeric (1700), date/time (1082, 1083, 1114, 1184, 1266),
 * interval (1186), json (114) and jsonb (3802): exact values, no Date or Number round trip.
 * Booleans and small integers keep pg's parsers.
 */
const TEXT_OIDS = new Set([20, 1700, 1082, 1083, 1114, 1184, 1266, 1186, 114, 3802]);
const identity = (value: string): string => value;
const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    TEXT_OIDS.has(oid) ? identity : pg.types.getTypeParser(oid, format ?? 'text')) as typeof pg.types.getTypeParser,
};

function clientConfig(options: PostgresOptions): pg.ClientConfig {
  const user = new URL(options.url).username;
  return {
    connectionString: options.url,
    user: user !== '' ? decodeURIComponent(user) : (options.user ?? os.userInfo().username),
    application_name: 'payexport',
    connectionTimeoutMillis: options.connectTimeoutMs ?? 10_000,
    statement_timeout: options.statementTimeoutMs ?? 15 * 60_000,
    lock_timeout: options.lockTimeoutMs ?? 60_000,
    idle_in_transaction_session_timeout: options.idleInTransactionTimeoutMs ?? 10 * 60_000,
    types,
  };
}

type PgRunner = pg.Pool | pg.PoolClient | pg.Client;

/**
 * A prepared statement's name, derived from its text: pg prepares a named statement once per
 * connection and then only binds and executes it; the same name for another text would be an
 * error, and the schema name is part of the text, so the name must follow the text.
 */
function statementName(sql: string): string {
  return `payexport_${createHash('sha1').update(sql).digest('hex').slice(0, 32)}`;
}

function queryable(runner: PgRunner, target: string, copyClient: pg.PoolClient | pg.Client | null): Queryable {
  const query = async <R extends object>(sql: string, params?: readonly SqlParam[], options?: QueryOptions): Promise<QueryResult<R>> => {
    try {
      const values = params as unknown[] | undefined;
      const result = options?.reuse ? await runner.query<R>({ name: statementName(sql), text: sql, ...(values ? { values } : {}) }) : await runner.query<R>(sql, values);
      return { rows: result.rows, rowCount: result.rowCount ?? result.rows.length };
    } catch (error) {
      throw classifyDbError(error, target);
    }
  };
  const execScript = async (sql: string): Promise<void> => {
    try {
      await runner.query(sql);
    } catch (error) {
      throw classifyDbError(error, target);
    }
  };
  if (copyClient === null) return { query, execScript };
  const copyFrom = async (table: string, columns: readonly string[], chunks: Iterable<string>): Promise<number> => {
    try {
      const stream = copyClient.query(copyFromStdin(`COPY ${table} (${columns.join(', ')}) FROM STDIN`));
      // A lone string is iterable by character: treat it as one chunk.
      const source = typeof chunks === 'string' ? [chunks] : chunks;
      await pipeline(Readable.from(source, { objectMode: false, highWaterMark: 256 * 1024 }), stream);
      return stream.rowCount;
    } catch (error) {
      throw classifyDbError(error, target);
    }
  };
  return { query, execScript, copyFrom };
}

/**
 * A real PostgreSQL server (15 and later) through a `pg` pool. Connects once before returning, so
 * an unreachable server fails here with exit 75 and a redacted URL.
 */
export async function openPostgres(options: PostgresOptions): Promise<Db> {
  const target = redactDatabaseUrl(options.url);
  const config = clientConfig(options);
  const pool = new pg.Pool({ ...config, max: options.poolSize ?? 4 });
  // An idle pooled client losing its server emits 'error' on the pool; without a listener Node
  // would crash the process. The next query reports the outage instead.
  pool.on('error', () => undefined);
  try {
    await pool.query('SELECT 1');
  } catch (error) {
    await pool.end().catch(() => undefined);
    throw classifyDbError(error, target);
  }

  const base = queryable(pool, target, null);
  return {
    engine: 'postgres',
    target,
    query: base.query,
    execScript: base.execScript,
    async transaction<T>(fn: (tx: Queryable) => Promise<T>, options?: TransactionOptions): Promise<T> {
      let client: pg.PoolClient;
      try {
        client = await pool.connect();
      } catch (error) {
        throw classifyDbError(error, target);
      }
      // A checked-out client whose server goes away emits 'error' between queries; the pool only
      // listens on idle clients, so without this the process would crash (exit 1 with a stack)
      // instead of the next query reporting the outage (exit 75).
      const swallow = (): void => undefined;
      client.on('error', swallow);
      const tx = queryable(client, target, client);
      let broken = false;
      try {
        // one round trip: the simple query protocol takes both statements in one message
        await (options?.asyncCommit ? tx.execScript('BEGIN; SET LOCAL synchronous_commit = off') : tx.query('BEGIN'));
        const result = await fn(tx);
        await tx.query('COMMIT');
        return result;
      } catch (error) {
        try {
          await client.query('ROLLBACK');
        } catch {
          broken = true;
        }
        throw error;
      } finally {
        // A client whose ROLLBACK failed is in an unknown state: destroy it rather than reuse it.
        client.off('error', swallow);
        client.release(broken);
      }
    },
    async openSession(): Promise<Session> {
      const client = new pg.Client(config);
      client.on('error', () => undefined);
      try {
        await client.connect();
      } catch (error) {
        throw classifyDbError(error, target);
      }
      const session = queryable(client, target, client);
      return { ...session, close: () => client.end() };
    },
    close: () => pool.end(),
  };
}
