import { mkdir, mkdtemp, readdir, readFile, rm, truncate, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeStatus } from '../../../src/sinks/close-status.js';
import { publishTarget, readPeriodOnDisk, type PeriodOnDisk } from '../../../src/sinks/period-on-disk.js';
import { openReportFolder } from '../../../src/sinks/report-folder.js';
import { PAYMENTS_TABLE } from '../../../src/sinks/tables/index.js';
import { verify } from '../../../src/sinks/verify.js';
import { AppError } from '../../../src/util/errors.js';
import { paymentRow, smallFixture } from '../../support/sinks/rows.js';
import { FIXTURE_SCOPE, fixtureOptions, writeSmallReport } from '../../support/sinks/write-report.js';
import { treeBytes } from '../../support/sinks/tree-bytes.js';

/**
 * The folder is the authority (src/sinks/period-on-disk.ts): whatever the snapshot says, a
 * version on disk that says closed is never replaced — the run writes the next amendment, or
 * nothing when its files are the same — and a version whose manifest cannot be read stops the
 * run with exit 73 before anything is written.
 */

const CLOSED = closeStatus({ closing: true, allowOpen: true, closedBefore: false, openItems: 1, period: '2026-10' });
const LATE = paymentRow({ payment_id: '99999999-0000-4000-8000-00000000a7e1', description: 'late refund' });

let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'payexport-period-on-disk-'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

async function refusal(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

const versions = (names: string[], closedAt: number | null = null): PeriodOnDisk => ({
  versions: names.map((name, i) => ({ name, manifest: i === closedAt ? { close: { state: 'closed' } } : {} })),
  closed: closedAt !== null || names.some((n) => n.includes('.amended-')),
  closedBy: null,
});

describe('where a run publishes', () => {
  it('the period itself while it is open everywhere, replaced in place', () => {
    expect(publishTarget('2026-10', versions([]), false)).toEqual({ name: '2026-10', amendment: null, replace: true });
    expect(publishTarget('2026-10', versions(['2026-10']), false)).toEqual({ name: '2026-10', amendment: null, replace: true });
  });

  it('the period, never replacing, when the snapshot closed it and nothing is on disk', () => {
    expect(publishTarget('2026-10', versions([]), true)).toEqual({ name: '2026-10', amendment: null, replace: false });
  });

  it('the next amendment after the last on disk, when the snapshot or the disk says closed', () => {
    expect(publishTarget('2026-10', versions(['2026-10']), true)).toEqual({ name: '2026-10.amended-1', amendment: 1, replace: false });
    expect(publishTarget('2026-10', versions(['2026-10'], 0), false)).toEqual({ name: '2026-10.amended-1', amendment: 1, replace: false });
    expect(publishTarget('2026-10', versions(['2026-10', '2026-10.amended-1', '2026-10.amended-2']), false)).toEqual({ name: '2026-10.amended-3', amendment: 3, replace: false });
    // an amendment without its base: still a closed period
    expect(publishTarget('2026-10', versions(['2026-10.amended-4']), false)).toEqual({ name: '2026-10.amended-5', amendment: 5, replace: false });
  });
});

describe('a closed folder, and a run whose snapshot does not know the close', () => {
  it('writes amended-1 with the new data and leaves the closed folder byte for byte', async () => {
    const out = join(root, 'fresh-snapshot');
    const closed = await writeSmallReport(out, {}, { close: CLOSED });
    expect(closed.manifest.close.state).toBe('closed_with_open_items');
    const before = treeBytes(closed.dir);
    // `closed` not given: the snapshot of this run has no record of the close
    const amended = await writeSmallReport(out, { runId: 'run-2' }, { morePayments: [LATE] });
    expect(amended).toMatchObject({ dir: join(out, 'month-end', '2026-10.amended-1'), unchanged: false });
    expect(amended.manifest).toMatchObject({ folder: '2026-10.amended-1', amendment: 1 });
    expect(await readFile(join(amended.dir, 'payments.csv'), 'utf8')).toContain(LATE.payment_id);
    expect(treeBytes(closed.dir)).toEqual(before);
    expect((await verify(closed.dir)).ok).toBe(true);
  });

  it('writes nothing when the files would be identical to the latest version', async () => {
    const out = join(root, 'identical');
    const closed = await writeSmallReport(out, {}, { close: CLOSED });
    const before = treeBytes(join(out, 'month-end'));
    const rerun = await writeSmallReport(out, { runId: 'run-2' }, { close: CLOSED });
    expect(rerun).toMatchObject({ dir: closed.dir, unchanged: true });
    expect(treeBytes(join(out, 'month-end'))).toEqual(before);
  });

  it('numbers after the amendments on disk: an amended-1 of another snapshot is never overwritten', async () => {
    const out = join(root, 'numbering');
    await writeSmallReport(out, {}, { close: CLOSED });
    const first = await writeSmallReport(out, { runId: 'run-2' }, { morePayments: [LATE] });
    const before = treeBytes(join(out, 'month-end'));
    // a snapshot that knows the close but none of the amendments, with other data again
    const second = await writeSmallReport(out, { runId: 'run-3', closed: true }, { morePayments: [LATE, paymentRow({ payment_id: '99999999-0000-4000-8000-00000000a7e2' })] });
    expect(second.manifest).toMatchObject({ folder: '2026-10.amended-2', amendment: 2 });
    for (const [path, sha] of Object.entries(before)) expect(treeBytes(join(out, 'month-end'))[path], path).toBe(sha);
    expect(first.dir).toBe(join(out, 'month-end', '2026-10.amended-1'));
  });

  it('decides again at publish: a close published while this run wrote turns its replace into an amendment', async () => {
    const out = join(root, 'late-close');
    await writeSmallReport(out);
    const f = smallFixture();
    const folder = await openReportFolder(fixtureOptions(out, { runId: 'slow-run' }));
    expect(folder.folderName).toBe('2026-10');
    const payments = await folder.table(PAYMENTS_TABLE);
    await payments.writeAll([...f.payments, LATE]);
    await payments.close();
    // meanwhile another run (another snapshot) closes the month
    const closer = await writeSmallReport(out, { runId: 'closing-run' }, { close: CLOSED });
    const before = treeBytes(closer.dir);
    const published = await folder.publish({ parameters: {}, controlTotals: f.controlTotals, checks: f.checks });
    expect(published.manifest).toMatchObject({ folder: '2026-10.amended-1', amendment: 1 });
    expect(treeBytes(closer.dir)).toEqual(before);
  });

  it('takes the next number when another run published the amendment it foresaw', async () => {
    const out = join(root, 'taken-number');
    await writeSmallReport(out, {}, { close: CLOSED });
    const f = smallFixture();
    const folder = await openReportFolder(fixtureOptions(out, { runId: 'slow-run', closed: true }));
    expect(folder.folderName).toBe('2026-10.amended-1');
    const payments = await folder.table(PAYMENTS_TABLE);
    await payments.writeAll([...f.payments, LATE]);
    await payments.close();
    const other = await writeSmallReport(out, { runId: 'quick-run', closed: true }, { morePayments: [paymentRow({ payment_id: '99999999-0000-4000-8000-00000000a7e3' })] });
    expect(other.manifest.folder).toBe('2026-10.amended-1');
    const published = await folder.publish({ parameters: {}, controlTotals: f.controlTotals, checks: f.checks });
    expect(published.manifest).toMatchObject({ folder: '2026-10.amended-2', amendment: 2 });
    expect(await readFile(join(other.dir, 'payments.csv'), 'utf8')).not.toContain(LATE.payment_id);
  });
});

describe('a folder that cannot be read as a report: exit 73, nothing written, nothing deleted', () => {
  const cases: Array<[string, (dir: string) => Promise<void>, RegExp]> = [
    ['a truncated manifest', async (dir) => truncate(join(dir, 'manifest.json'), 200), /manifest\.json that is not JSON/],
    ['no manifest', async (dir) => unlink(join(dir, 'manifest.json')), /has no manifest\.json/],
    ['a manifest that lists no files', async (dir) => writeFile(join(dir, 'manifest.json'), '{"run_id":"x"}\n'), /not a report manifest/],
  ];
  for (const [label, spoil, message] of cases) {
    it(`${label}, whatever the snapshot says`, async () => {
      for (const closed of [false, true]) {
        const out = join(root, `unreadable-${label.replace(/\W+/g, '-')}-${closed}`);
        const first = await writeSmallReport(out);
        await spoil(first.dir);
        const before = treeBytes(join(out, 'month-end'));
        const error = await refusal(writeSmallReport(out, { runId: 'run-2', closed }, { morePayments: [LATE] }));
        expect(error.exitCode).toBe(73);
        expect(error.message).toMatch(message);
        expect(error.message).toContain(first.dir);
        expect(error.message).not.toMatch(/\n/);
        expect(treeBytes(join(out, 'month-end'))).toEqual(before);
        expect(await readdir(join(out, 'month-end'))).toEqual(['2026-10']);
      }
    });
  }

  it('an amendment without a manifest stops the run too (its number is taken, its content unknown)', async () => {
    const out = join(root, 'unreadable-amendment');
    await writeSmallReport(out, {}, { close: CLOSED });
    await mkdir(join(out, 'month-end', '2026-10.amended-1'));
    await writeFile(join(out, 'month-end', '2026-10.amended-1', 'payments.csv'), 'by hand');
    expect((await refusal(writeSmallReport(out, { runId: 'run-2' }, { morePayments: [LATE] }))).exitCode).toBe(73);
    expect((await readdir(join(out, 'month-end'))).sort()).toEqual(['2026-10', '2026-10.amended-1']);
  });
});

describe("a version of another scope: exit 78 (never amended with another scope's files)", () => {
  it("another organization's folder, or another selection of the same organization's", async () => {
    const out = join(root, 'other-scope');
    const first = await writeSmallReport(out, {}, { close: CLOSED });
    const before = treeBytes(join(out, 'month-end'));
    const other = { ...FIXTURE_SCOPE, organization: '0b6c0d5e-0000-4000-8000-0000000000b2' };
    const narrower = { ...FIXTURE_SCOPE, wallets: ['0b6c0d5e-0000-4000-8000-0000000000aa'] };
    for (const scope of [other, narrower]) {
      const error = await refusal(writeSmallReport(out, { runId: 'run-2', scope }));
      expect(error.exitCode).toBe(78);
      expect(error.message).toContain(first.dir);
      expect(error.message).toContain(FIXTURE_SCOPE.organization);
      expect(error.message).toContain(scope.organization);
    }
    expect(treeBytes(join(out, 'month-end'))).toEqual(before);
  });

  it('reads the scope of a folder written before manifests named one from its parameters', async () => {
    const out = join(root, 'legacy');
    const first = await writeSmallReport(out, {}, { close: CLOSED });
    const manifest = JSON.parse(await readFile(join(first.dir, 'manifest.json'), 'utf8')) as Record<string, unknown>;
    delete manifest['scope'];
    manifest['parameters'] = { organization: FIXTURE_SCOPE.organization, environments: 'all', wallets: 'all' };
    await writeFile(join(first.dir, 'manifest.json'), JSON.stringify(manifest));
    const onDisk = await readPeriodOnDisk(join(out, 'month-end'), '2026-10', FIXTURE_SCOPE);
    expect(onDisk).toMatchObject({ closed: true, closedBy: { folder: first.dir, runId: 'run-1' } });
    const other = { ...FIXTURE_SCOPE, organization: '0b6c0d5e-0000-4000-8000-0000000000b2' };
    expect((await refusal(readPeriodOnDisk(join(out, 'month-end'), '2026-10', other))).exitCode).toBe(78);
  });
});
