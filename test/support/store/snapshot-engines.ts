/**
 * The snapshot engines a pipeline test runs on: the spool (`--no-db`) always, and the real
 * Postgres server when DATABASE_URL is set (a schema of its own per run, dropped after the file).
 */
import { afterAll } from 'vitest';
import { openPostgres } from '../../../src/store/db/pg-db.js';
import { dropSchema, probePostgres, uniqueSchemaName } from './engines.js';
import type { RunOptions } from '../pipeline/run-pipeline.js';

export interface SnapshotEngine {
  label: string;
  options(): Pick<RunOptions, 'flags' | 'env'>;
}

/** The engines for this file; `schemaPrefix` names the Postgres schemas it creates (and drops). */
export async function snapshotEngines(schemaPrefix: string): Promise<SnapshotEngine[]> {
  const pg = await probePostgres();
  const schemas: string[] = [];
  afterAll(async () => {
    if (pg.url === null || schemas.length === 0) return;
    const db = await openPostgres({ url: pg.url });
    try {
      for (const schema of schemas) await dropSchema(db, schema);
    } finally {
      await db.close();
    }
  });
  const spool: SnapshotEngine = { label: 'spool (--no-db)', options: () => ({ flags: { db: false } }) };
  if (pg.url === null) return [spool];
  const url = pg.url;
  const server: SnapshotEngine = {
    label: 'PostgreSQL server',
    options: () => {
      const dbSchema = uniqueSchemaName(schemaPrefix);
      schemas.push(dbSchema);
      return { flags: { dbSchema }, env: { DATABASE_URL: url } };
    },
  };
  return [spool, server];
}
