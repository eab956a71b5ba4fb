/**
 * Issue 41, target 5: the files the export writes for the bench's datasets stay byte for byte what
 * they were before the speed work — every CSV and the workbook, on the spool, the Postgres server
 * and the embedded engine. The digests were recorded from main before any change
 * (bench/output-digests.ts --write); the built CLI runs here (`npm test` builds first).
 */
import { describe, expect, it } from 'vitest';
import { datasetKey, DIGEST_DATASETS, exportDigests, readDigestBook, type SnapshotKind } from '../../../bench/output-digests.js';
import { probePostgres } from '../../support/store/engines.js';

const pg = await probePostgres();
const KINDS: SnapshotKind[] = pg.url === null ? ['spool', 'embedded'] : ['spool', 'server', 'embedded'];
const book = readDigestBook();

// The embedded engine runs the same SQL as the server: in npm test it exports the small dataset
// (20 wallets), and the 200-wallet one with the long runs (npm run test:faults), where its 9 s of
// single-threaded WASM belong.
const LONG_RUNS = process.env['PAYEXPORT_FAULTS_LONG'] === '1';
const longOnly = (d: (typeof DIGEST_DATASETS)[number], kind: SnapshotKind): string | null =>
  kind === 'embedded' && d.wallets > 20 && !LONG_RUNS ? 'long on the embedded engine; run by `npm run test:faults` (PAYEXPORT_FAULTS_LONG=1)' : null;

describe.each(KINDS)('the bench datasets exported on the %s', (kind) => {
  const cases = DIGEST_DATASETS.map((d) => ({ ...d, key: datasetKey(d, kind), why: longOnly(d, kind) }));
  for (const d of cases) it.skipIf(d.why !== null)(`${d.key}: every CSV and the workbook as recorded${d.why === null ? '' : ` (skipped: ${d.why})`}`, async () => {
    const want = book[d.key];
    expect(want, `no digests recorded for ${d.key}`).toBeDefined();
    expect(Object.keys(want ?? {}).filter((f) => f.endsWith('.xlsx'))).toHaveLength(1);
    const got = await exportDigests(d, kind, pg.url ?? undefined);
    expect(got).toEqual(want);
  }, 180_000);
});
