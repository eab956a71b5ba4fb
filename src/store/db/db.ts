/**
 * The database port every store module talks to (docs/style.md#9-postgres): parameterized queries,
 * one transaction per unit of work, an optional bulk-load capability, close. Two adapters:
 * `pg-db.ts` (a real server through a `pg` pool) and `pglite-db.ts` (the embedded engine in
 * process). Store code never imports `pg` or PGlite directly.
 *
 * Value conventions, identical on both adapters so no store code branches on the engine:
 * - parameters are strings, safe integers, booleans, null or string arrays; bigints and instants
 *   are passed as their decimal / RFC 3339 text and cast in SQL;
 * - results come back as text for int8, numeric, date/time and json types (never a JS Date or a
 *   Number round trip); booleans and int2/int4 as JS values; arrays are selected as JSON text.
 */

export type SqlParam = string | number | boolean | null | readonly (string | null)[];

export interface QueryResult<R> {
  rows: R[];
  /** rows affected (DML) or returned (SELECT) */
  rowCount: number;
}

export interface QueryOptions {
  /**
   * The caller runs this exact text again and again (a page's hash lookup, its checkpoint, its
   * upsert): a server engine keeps it prepared per connection, so Postgres parses and plans it
   * once instead of on every page (docs/benchmarks.md, "Round 3"). Only for text
   * whose result columns never change; the embedded engine ignores it.
   */
  reuse?: boolean;
}

export interface TransactionOptions {
  /**
   * Commit without waiting for the WAL flush (`synchronous_commit = off` for this transaction
   * only), set as the transaction begins. For work that a rerun redoes if a server crash loses it.
   */
  asyncCommit?: boolean;
}

export interface Queryable {
  query<R extends object = Record<string, unknown>>(sql: string, params?: readonly SqlParam[], options?: QueryOptions): Promise<QueryResult<R>>;
  /** Several statements without parameters (a migration file), via the simple query protocol. */
  execScript(sql: string): Promise<void>;
  /**
   * Bulk load: `COPY target (columns) FROM …` in PostgreSQL text format (`../encoding/copy-text.ts`), the
   * text given as chunks of whole lines. Chunks are produced lazily, so a server parses one chunk
   * while the next is encoded. Absent where the engine cannot COPY; callers fall back to batched
   * `unnest` inserts. Returns the rows loaded.
   */
  readonly copyFrom?: (target: string, columns: readonly string[], chunks: Iterable<string>) => Promise<number>;
}

/** A connection of its own, for session-level state such as advisory locks. */
export interface Session extends Queryable {
  close(): Promise<void>;
}

export type Engine = 'postgres' | 'pglite';

export interface Db extends Queryable {
  readonly engine: Engine;
  /** where the data lives, safe to print: the URL with its password redacted, or the data folder */
  readonly target: string;
  /** Runs `fn` in one transaction: COMMIT when it resolves, ROLLBACK when it throws. Not re-entrant. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>, options?: TransactionOptions): Promise<T>;
  /** Server engines: a new connection outside the pool (advisory locks must outlive pooled checkouts). */
  readonly openSession?: () => Promise<Session>;
  /** Embedded engine: the payexport data folder (null = in memory); run locks are files in it. */
  readonly dataDir?: string | null;
  close(): Promise<void>;
}
