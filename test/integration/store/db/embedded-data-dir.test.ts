import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { serveEmbeddedForPsql } from '../../../../src/store/db/db-shell.js';
import { openEmbedded } from '../../../../src/store/db/pglite-db.js';
import { databaseSnapshot } from '../../../../src/store/database-snapshot.js';
import { paymentRow } from '../../../support/store/rows.js';

const dir = await mkdtemp(path.join(os.tmpdir(), 'payexport-embedded-'));

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('embedded engine on a data folder', () => {
  it('persists across reopen, admits one process at a time, and serves psql over one connection', async () => {
    const db = await openEmbedded({ dataDir: dir });
    const store = databaseSnapshot(db);
    await store.migrate();
    const writer = store.writer();
    await writer.beginRun({ run_id: 'r1', run_key: 'k', command: 'export', organization_id: paymentRow(1).organization_id, window: null, parameters: {}, started_at: '2026-11-22T00:00:00.000000Z' });
    await writer.writePaymentsPage([paymentRow(1)], { run_key: 'k', stream: 's', position: '{}', pages: 1, rows: 1, done: true });

    // A second opener of the same folder is refused at once (exit 75), naming the holder.
    const second = await openEmbedded({ dataDir: dir }).catch((caught: unknown) => caught);
    expect(second).toMatchObject({ type: 'lock_held', exitCode: 75 });
    expect((second as Error).message).toContain(`pid ${process.pid}`);
    await db.close();

    const shell = await serveEmbeddedForPsql(dir, 0);
    try {
      expect(shell.psqlCommand).toBe(`psql "host=127.0.0.1 port=${shell.port} user=postgres dbname=postgres sslmode=disable"`);
      await expect(openEmbedded({ dataDir: dir })).rejects.toMatchObject({ exitCode: 75 });
      const client = new pg.Client({ host: shell.host, port: shell.port, user: 'postgres', database: 'postgres' });
      await client.connect();
      try {
        const { rows } = await client.query<{ n: number; id: string }>('SELECT count(*)::int AS n, min(payment_id) AS id FROM payexport.payments');
        expect(rows).toEqual([{ n: 1, id: paymentRow(1).payment_id }]);
      } finally {
        await client.end();
      }
    } finally {
      await shell.close();
    }

    const reopened = await openEmbedded({ dataDir: dir });
    try {
      expect(await databaseSnapshot(reopened).source.knownPaymentIds(paymentRow(1).organization_id, [paymentRow(1).payment_id])).toEqual(new Set([paymentRow(1).payment_id]));
    } finally {
      await reopened.close();
    }
  });
});
