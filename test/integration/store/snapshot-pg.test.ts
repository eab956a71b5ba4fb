import { openPostgres } from '../../../src/store/pg-db.js';
import { probePostgres } from './engines.js';
import { defineSnapshotSuite } from './snapshot-suite.js';
import { describe, it } from 'vitest';

const pg = await probePostgres();
const url = pg.url;

if (url === null) {
  // Without a reachable Postgres (a laptop without one) the suite shows as one skipped test that
  // says why; .ci/run sets PAYEXPORT_REQUIRE_PG=1, under which probePostgres fails instead.
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
