import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { afterAll, describe, expect, it } from 'vitest';
import { openEmbedded } from '../../../../src/store/db/pglite-db.js';
import { databaseSnapshot } from '../../../../src/store/database-snapshot.js';
import { paymentRow } from '../../../support/store/rows.js';

const dir = await mkdtemp(path.join(os.tmpdir(), 'payexport-embedded-template-'));
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** The build's template, made the way scripts/embedded-template.mjs makes it. */
async function makeTemplate(): Promise<string> {
  const engine = await PGlite.create();
  const tarball = await engine.dumpDataDir('gzip');
  await engine.close();
  const file = path.join(dir, 'template.tar.gz');
  writeFileSync(file, Buffer.from(await tarball.arrayBuffer()));
  return file;
}

describe('embedded engine started from the build template, on its own thread', () => {
  it('makes a new data folder from the template, keeps it across reopen, and passes SQL errors and rollbacks through', async () => {
    const template = await makeTemplate();
    const dataDir = path.join(dir, 'data');
    // what a run killed while unpacking leaves behind
    mkdirSync(path.join(dataDir, 'pgdata.new', 'base'), { recursive: true });
    writeFileSync(path.join(dataDir, 'pgdata.new', 'base', 'junk'), 'x');

    const db = await openEmbedded({ dataDir, template });
    expect(existsSync(path.join(dataDir, 'pgdata', 'PG_VERSION'))).toBe(true);
    expect(existsSync(path.join(dataDir, 'pgdata.new'))).toBe(false);
    const store = databaseSnapshot(db);
    await store.migrate();
    const writer = store.writer();
    await writer.beginRun({ run_id: 'r1', run_key: 'k', command: 'export', organization_id: paymentRow(1).organization_id, window: null, parameters: {}, started_at: '2026-11-22T00:00:00.000000Z' });
    await writer.writePaymentsPage([paymentRow(1), paymentRow(2)], { run_key: 'k', stream: 's', position: '{}', pages: 1, rows: 2, done: true });

    await db.execScript('CREATE TABLE t (k int PRIMARY KEY)');
    await db.query('INSERT INTO t VALUES (1)');
    await expect(db.query('INSERT INTO t VALUES (1)')).rejects.toMatchObject({ code: '23505' });
    await expect(
      db.transaction(async (tx) => {
        await tx.query('INSERT INTO t VALUES (2)');
        throw new Error('the unit of work fails');
      }),
    ).rejects.toThrow('the unit of work fails');
    expect((await db.query<{ k: number }>('SELECT k FROM t ORDER BY k')).rows).toEqual([{ k: 1 }]);
    await db.close();

    // reopened, the folder is not unpacked again: what was written is there
    const reopened = await openEmbedded({ dataDir, template });
    try {
      const ids = [paymentRow(1).payment_id, paymentRow(2).payment_id];
      expect(await databaseSnapshot(reopened).source.knownPaymentIds(paymentRow(1).organization_id, ids)).toEqual(new Set(ids));
      expect((await reopened.query<{ k: number }>('SELECT k FROM t')).rows).toEqual([{ k: 1 }]);
    } finally {
      await reopened.close();
    }
  });
});
