import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Db } from '../../../../src/store/db/db.js';
import { acquireRunLock } from '../../../../src/store/sql/run-lock.js';
import { storeSchema } from '../../../../src/store/db/schema.js';
import { HOLD_RUN_LOCK, killHard, startChild } from '../../../support/store/child.js';

/** The embedded engine's run lock is a file in the data folder; no engine is needed to test it. */
const dirs: string[] = [];
async function dataDir(): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'payexport-lock-'));
  dirs.push(dir);
  return dir;
}

function embeddedStub(dir: string | null): Db {
  const none = (): Promise<never> => Promise.reject(new Error('no engine'));
  return { engine: 'pglite', target: 'stub', dataDir: dir, query: none, execScript: none, transaction: none, close: () => Promise.resolve() };
}

const schema = storeSchema('payexport');

afterAll(async () => {
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

describe('embedded run lock (lock file)', () => {
  it('refuses a second holder in the same process with exit 75 and frees on release', async () => {
    const db = embeddedStub(await dataDir());
    const lock = await acquireRunLock(db, schema, 'org', 'nightly');
    await expect(acquireRunLock(db, schema, 'org', 'nightly')).rejects.toMatchObject({ type: 'lock_held', exitCode: 75 });
    await lock.release();
    await (await acquireRunLock(db, schema, 'org', 'nightly')).release();
  });

  it('names a live holder process and frees the lock when that process is SIGKILLed', async () => {
    const dir = await dataDir();
    const child = await startChild(HOLD_RUN_LOCK, ['file', dir, 'payexport', 'org', 'export']);
    try {
      const error = await acquireRunLock(embeddedStub(dir), schema, 'org', 'export').catch((caught: unknown) => caught);
      expect(error).toMatchObject({ type: 'lock_held', exitCode: 75 });
      expect((error as Error).message).toContain(`pid ${child.pid}`);
    } finally {
      await killHard(child);
    }
    // The file is still there, but its pid is dead: stale, replaced.
    expect((await readdir(path.join(dir, 'locks'))).length).toBe(1);
    const lock = await acquireRunLock(embeddedStub(dir), schema, 'org', 'export');
    await lock.release();
    expect(await readdir(path.join(dir, 'locks'))).toEqual([]);
  });

  it('treats a half-written lock file as held until it is old, never as free', async () => {
    const dir = await dataDir();
    const db = embeddedStub(dir);
    const lock = await acquireRunLock(db, schema, 'org', 'job');
    const [file] = await readdir(path.join(dir, 'locks'));
    await lock.release();
    await writeFile(path.join(dir, 'locks', file ?? 'x'), '{"pid":');
    await expect(acquireRunLock(db, schema, 'org', 'job')).rejects.toMatchObject({ exitCode: 75 });
  });

  it('keeps in-memory engines\' locks per Db object', async () => {
    const db = embeddedStub(null);
    const lock = await acquireRunLock(db, schema, 'org', 'job');
    await expect(acquireRunLock(db, schema, 'org', 'job')).rejects.toMatchObject({ exitCode: 75 });
    await lock.release();
    await (await acquireRunLock(db, schema, 'org', 'job')).release();
  });
});
