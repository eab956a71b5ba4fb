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

describe.each(KINDS)('the bench datasets exported on the %s', (kind) => {
  it.each(DIGEST_DATASETS.map((d) => ({ ...d, key: datasetKey(d, kind) })))('$key: every CSV and the workbook as recorded', async (d) => {
    const want = book[d.key];
    expect(want, `no digests recorded for ${d.key}`).toBeDefined();
    expect(Object.keys(want ?? {}).filter((f) => f.endsWith('.xlsx'))).toHaveLength(1);
    const got = await exportDigests(d, kind, pg.url ?? undefined);
    expect(got).toEqual(want);
  }, 180_000);
});
