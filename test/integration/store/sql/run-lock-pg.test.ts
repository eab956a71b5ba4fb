import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../../../src/store/db/db.js';
import { openPostgres } from '../../../../src/store/db/pg-db.js';
import { acquireRunLock } from '../../../../src/store/sql/run-lock.js';
import { storeSchema } from '../../../../src/store/db/schema.js';
import { databaseSnapshot } from '../../../../src/store/database-snapshot.js';
import { AppError } from '../../../../src/util/errors.js';
import { HOLD_RUN_LOCK, eventually, killHard, startChild } from '../../../support/store/child.js';
import { dropSchema, probePostgres, uniqueSchemaName } from '../../../support/store/engines.js';

const pg = await probePostgres();
const url = pg.url;
const ORG = 'org-lock';

describe.skipIf(url === null)(`run lock on a PostgreSQL server${pg.skipReason === null ? '' : ` (skipped: ${pg.skipReason})`}`, () => {
  let db: Db;
  const schemaName = uniqueSchemaName('lock');
  const schema = storeSchema(schemaName);

  beforeAll(async () => {
    db = await openPostgres({ url: url ?? '' });
    await databaseSnapshot(db, { schema: schemaName }).migrate();
  });

  afterAll(async () => {
    await dropSchema(db, schemaName);
    await db.close();
  });

  it('lets one run in; a second gets exit 75 naming the holder; release lets the next in', async () => {
    const lock = await acquireRunLock(db, schema, ORG, 'nightly');
    const error = await acquireRunLock(db, schema, ORG, 'nightly').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ type: 'lock_held', exitCode: 75 });
    // Another job or organization is independent.
    const other = await acquireRunLock(db, schema, ORG, 'month-end');
    await other.release();
    await lock.release();
    const again = await acquireRunLock(db, schema, ORG, 'nightly');
    await again.release();
  });

  it('names the holding run from the runs table, and frees the lock when the holder is SIGKILLed', async () => {
    const child = await startChild(HOLD_RUN_LOCK, ['pg', url ?? '', schemaName, ORG, 'export', 'run-held-by-child']);
    try {
      const error = await acquireRunLock(db, schema, ORG, 'export').catch((caught: unknown) => caught);
      expect(error).toMatchObject({ exitCode: 75, type: 'lock_held' });
      expect((error as Error).message).toContain('run run-held-by-child, started 2026-11-22T01:02:03.456789Z');
    } finally {
      await killHard(child);
    }
    const lock = await eventually(() => acquireRunLock(db, schema, ORG, 'export'));
    await lock.release();
  });
});
