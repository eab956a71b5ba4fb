import { openPostgres } from '../../../src/store/db/pg-db.js';
import { probePostgres } from '../../support/store/engines.js';
import { defineSnapshotSuite } from './snapshot-suite.js';
import { describe } from 'vitest';

const pg = await probePostgres();
const url = pg.url;

// Skipped only without a reachable Postgres (a laptop without one), saying why in the title;
// .ci/run sets PAYEXPORT_REQUIRE_PG=1, under which probePostgres fails instead of skipping.
describe.skipIf(url === null)(`snapshot store${pg.skipReason === null ? '' : ` (skipped: ${pg.skipReason})`}`, () => {
  defineSnapshotSuite({
    label: 'PostgreSQL server',
    async connect() {
      const db = await openPostgres({ url: url as string });
      return { db, release: () => db.close() };
    },
  });
});
