import { openEmbedded } from '../../../src/store/db/pglite-db.js';
import { defineSnapshotSuite } from './snapshot-suite.js';

// One in-memory engine for the whole file: starting one takes ~5 s (initdb runs in WebAssembly).
defineSnapshotSuite({
  label: 'embedded PGlite',
  async connect() {
    const db = await openEmbedded({ dataDir: null });
    return { db, release: () => db.close() };
  },
});
