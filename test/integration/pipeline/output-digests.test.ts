/**
 * Issue 41, target 5: the files the export writes for the bench's datasets stay byte for byte what
 * they were before the speed work — every CSV and the workbook, on the spool, the Postgres server
 * and the embedded engine. The digests were recorded from main before any change
 * (bench/output-digests.ts --write); the built CLI runs here (`npm test` builds first).
 */
import { describe, expect, it } from 'vitest';
import { datasetKey, DIGEST_DATASETS, exportDigests, readDigestBook, type SnapshotKind } from '../../../bench/output-digests.js';
import { probePostgres } from '../../support/store/engines.js';
import { variantSkip } from '../../support/long-runs.js';

const pg = await probePostgres();
const KINDS: SnapshotKind[] = pg.url === null ? ['spool', 'embedded'] : ['spool', 'server', 'embedded'];
const book = readDigestBook();

// npm test exports the small dataset (20 wallets) on every store; the 200-wallet one, the same code
// over more wallets (20 s a store, 9 s of single-threaded WASM on the embedded engine), with the long
// runs (npm run test:faults).
const longOnly = (d: (typeof DIGEST_DATASETS)[number], _kind: SnapshotKind): string | null => variantSkip(d.wallets <= 20);

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
