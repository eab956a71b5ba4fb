import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../../src/store/db/db.js';
import { openPostgres } from '../../../src/store/db/pg-db.js';
import { databaseSnapshot } from '../../../src/store/database-snapshot.js';
import { paymentRow } from '../../support/store/rows.js';
import { dropSchema, probePostgres, uniqueSchemaName } from '../../support/store/engines.js';

const pg = await probePostgres();
const url = pg.url;

/** Jobs can run as a role that may only read and write the tables, once an owner has migrated. */
describe.skipIf(url === null)(`a job role without CREATE${pg.skipReason === null ? '' : ` (skipped: ${pg.skipReason})`}`, () => {
  let owner: Db;
  const schemaName = uniqueSchemaName('role');
  const role = `payexport_t_job_${randomBytes(4).toString('hex')}`;

  beforeAll(async () => {
    owner = await openPostgres({ url: url ?? '' });
    await databaseSnapshot(owner, { schema: schemaName }).migrate();
    await owner.query(`CREATE ROLE ${role} LOGIN`);
    await owner.query(`GRANT USAGE ON SCHEMA ${schemaName} TO ${role}`);
    await owner.query(`GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA ${schemaName} TO ${role}`);
    await owner.query(`GRANT USAGE ON ALL SEQUENCES IN SCHEMA ${schemaName} TO ${role}`);
  });

  afterAll(async () => {
    await dropSchema(owner, schemaName);
    await owner.query(`DROP ROLE IF EXISTS ${role}`);
    await owner.close();
  });

  it('finds nothing to migrate and loads pages', async () => {
    const target = new URL(url ?? '');
    target.username = role;
    const db = await openPostgres({ url: target.toString() });
    try {
      const store = databaseSnapshot(db, { schema: schemaName });
      expect((await store.migrate()).applied).toEqual([]);
      const writer = store.writer();
      await writer.beginRun({ run_id: 'r', run_key: 'k', command: 'export', organization_id: paymentRow(1).organization_id, window: null, parameters: {}, started_at: '2026-11-22T00:00:00.000000Z' });
      const checkpoint = { run_key: 'k', stream: 's', position: '{}', pages: 1, rows: 2, done: false };
      expect(await writer.writePaymentsPage([paymentRow(1), paymentRow(2)], checkpoint)).toMatchObject({ inserted: 2 });
      expect(await writer.writePaymentsPage([paymentRow(1, { status: 'failed', updated_at: '2026-10-09T00:00:00.000000Z' })], checkpoint)).toMatchObject({ updated: 1, history: 1 });
    } finally {
      await db.close();
    }
  });
});
