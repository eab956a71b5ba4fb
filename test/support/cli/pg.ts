/**
 * The real Postgres for CLI tests: DATABASE_URL, probed once per file (tests skip visibly without
 * it, and fail under PAYEXPORT_REQUIRE_PG=1), a unique schema per test, dropped afterwards, and
 * a way to search every table of a schema for a secret.
 */
import type { Db } from '../../../src/store/db/db.js';
import { openPostgres } from '../../../src/store/db/pg-db.js';
import { quoteIdent } from '../../../src/store/db/schema.js';
import { dropSchema, probePostgres, uniqueSchemaName } from '../store/engines.js';

export { probePostgres, uniqueSchemaName };

/** The URL the CLI gets: with a planted password when the server's URL has none (trust auth ignores it). */
export function urlWithPassword(url: string, planted: string): { url: string; password: string } {
  const parsed = new URL(url);
  if (parsed.password !== '') return { url, password: decodeURIComponent(parsed.password) };
  parsed.password = planted;
  return { url: parsed.toString(), password: planted };
}

export async function withDb<T>(url: string, fn: (db: Db) => Promise<T>): Promise<T> {
  const db = await openPostgres({ url });
  try {
    return await fn(db);
  } finally {
    await db.close();
  }
}

export async function dropSchemas(url: string, names: readonly string[]): Promise<void> {
  await withDb(url, async (db) => {
    for (const name of names) await dropSchema(db, name);
  });
}

/** Every row of every table of `schema` as text, concatenated (for "no secret in the database"). */
export async function schemaText(db: Db, schema: string): Promise<string> {
  const { rows } = await db.query<{ table_name: string }>('SELECT table_name FROM information_schema.tables WHERE table_schema = $1 ORDER BY table_name', [schema]);
  let text = '';
  for (const { table_name } of rows) {
    const { rows: dump } = await db.query<{ t: string | null }>(`SELECT string_agg(x::text, E'\\n') AS t FROM ${quoteIdent(schema)}.${quoteIdent(table_name)} x`);
    text += `${table_name}\n${dump[0]?.t ?? ''}\n`;
  }
  return text;
}
