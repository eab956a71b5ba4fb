import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../../../src/store/db/db.js';
import { openPostgres } from '../../../../src/store/db/pg-db.js';
import { openEmbedded } from '../../../../src/store/db/pglite-db.js';
import { probePostgres } from '../../../support/store/engines.js';

/**
 * The page writer's two options on the Db port (src/store/db/db.ts): `asyncCommit` turns off the
 * WAL-flush wait for that transaction only, and `reuse` keeps a statement prepared on the server.
 */
const pg = await probePostgres();

const synchronousCommit = async (q: Pick<Db, 'query'>): Promise<string> =>
  (await q.query<{ synchronous_commit: string }>('SHOW synchronous_commit')).rows[0]?.synchronous_commit ?? '';

function defineOptionsSuite(label: string, open: () => Promise<Db>): void {
  describe(`transaction and query options on ${label}`, () => {
    let db: Db;
    beforeAll(async () => {
      db = await open();
    });
    afterAll(async () => {
      await db?.close();
    });

    it('asyncCommit sets synchronous_commit off inside that transaction only', async () => {
      expect(await db.transaction((tx) => synchronousCommit(tx), { asyncCommit: true })).toBe('off');
      expect(await db.transaction((tx) => synchronousCommit(tx))).toBe('on');
      expect(await synchronousCommit(db)).toBe('on');
      // what the transaction wrote is committed as usual
      await db.query('CREATE TEMP TABLE IF NOT EXISTS options_probe (n int)');
      await db.transaction((tx) => tx.query('INSERT INTO options_probe VALUES (1)'), { asyncCommit: true });
      expect((await db.query<{ n: number }>('SELECT count(*)::int AS n FROM options_probe')).rows[0]?.n).toBe(1);
    });

    it('a failing asyncCommit transaction rolls back and the next one runs', async () => {
      await expect(db.transaction((tx) => tx.query('SELECT 1/0'), { asyncCommit: true })).rejects.toThrow();
      expect(await db.transaction((tx) => synchronousCommit(tx), { asyncCommit: true })).toBe('off');
    });

    it('a reused statement gives the same rows every time, with other parameters', async () => {
      const sql = 'SELECT $1::int + 1 AS n';
      for (const n of [1, 2, 3]) expect((await db.transaction((tx) => tx.query<{ n: number }>(sql, [n], { reuse: true }))).rows).toEqual([{ n: n + 1 }]);
      expect((await db.query<{ n: number }>(sql, [41], { reuse: true })).rows).toEqual([{ n: 42 }]);
    });
  });
}

defineOptionsSuite('the embedded engine', () => openEmbedded({ dataDir: null }));

describe.skipIf(pg.url === null)(`a PostgreSQL server${pg.skipReason === null ? '' : ` (skipped: ${pg.skipReason})`}`, () => {
  defineOptionsSuite('a PostgreSQL server', () => openPostgres({ url: pg.url as string, poolSize: 1 }));

  it('keeps a reused statement prepared on the connection: parsed once, executed many times', async () => {
    const db = await openPostgres({ url: pg.url as string, poolSize: 1 });
    try {
      const sql = "SELECT $1::text || '-reused' AS s";
      for (const s of ['a', 'b', 'c']) expect((await db.query<{ s: string }>(sql, [s], { reuse: true })).rows).toEqual([{ s: `${s}-reused` }]);
      await db.query('SELECT 1', []);
      const { rows } = await db.query<{ statement: string; executions: string }>(
        `SELECT statement, (generic_plans + custom_plans)::text AS executions FROM pg_prepared_statements WHERE statement = $1`,
        [sql],
      );
      // one prepared statement for the text, run three times (pool of one: the same connection)
      expect(rows).toEqual([{ statement: sql, executions: '3' }]);
    } finally {
      await db.close();
    }
  });
});
