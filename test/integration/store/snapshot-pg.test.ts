import { openPostgres } from '../../../src/store/pg-db.js';
import { probePostgres } from './engines.js';
import { defineSnapshotSuite } from './snapshot-suite.js';
import { describe, it } from 'vitest';

const pg = await probePostgres();
const url = pg.url;

if (url === null) {
  describe('snapshot store on PostgreSQL server', () => {
    it.skip(`skipped: ${pg.skipReason ?? ''}`, () => undefined);
  });
} else {
  defineSnapshotSuite({
    label: 'PostgreSQL server',
    async connect() {
      const db = await openPostgres({ url });
      return { db, release: () => db.close() };
    },
  });
}
