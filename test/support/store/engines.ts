import { randomBytes } from 'node:crypto';
import type { Db } from '../../../src/store/db/db.js';
import { openPostgres } from '../../../src/store/db/pg-db.js';
import { quoteIdent } from '../../../src/store/db/schema.js';

/**
 * Which engines the store tests run on. The real server comes from DATABASE_URL; when it is unset
 * or unreachable those tests SKIP with a notice, unless PAYEXPORT_REQUIRE_PG=1 (CI), where the
 * file fails instead. The embedded engine always runs.
 */
export interface PgProbe {
  url: string | null;
  /** why the real-server tests skip, or null when they run */
  skipReason: string | null;
}

export async function probePostgres(): Promise<PgProbe> {
  const url = process.env.DATABASE_URL ?? '';
  const required = process.env.PAYEXPORT_REQUIRE_PG === '1';
  let reason: string | null = null;
  if (url === '') {
    reason = 'DATABASE_URL is not set';
  } else {
    try {
      const db = await openPostgres({ url, connectTimeoutMs: 3_000 });
      await db.close();
    } catch (error) {
      reason = `DATABASE_URL is unreachable (${(error as Error).message})`;
    }
  }
  if (reason !== null && required) throw new Error(`PAYEXPORT_REQUIRE_PG=1 but ${reason}`);
  if (reason !== null) console.warn(`NOTICE: real-Postgres store tests SKIPPED: ${reason}`);
  return { url: reason === null ? url : null, skipReason: reason };
}

/** A schema name of its own for one test file, e.g. `payexport_t_snapshot_3f2a…`. */
export function uniqueSchemaName(label: string): string {
  return `payexport_t_${label}_${randomBytes(4).toString('hex')}`;
}

export async function dropSchema(db: Db, name: string): Promise<void> {
  await db.query(`DROP SCHEMA IF EXISTS ${quoteIdent(name)} CASCADE`);
}

/** The same Db without its COPY capability: exercises the `unnest` fallback path. */
export function withoutCopy(db: Db): Db {
  return {
    ...db,
    copyFrom: undefined,
    query: db.query.bind(db),
    transaction: (fn, options) => db.transaction((tx) => fn({ query: tx.query.bind(tx), execScript: tx.execScript.bind(tx) }), options),
    close: db.close.bind(db),
  };
}
