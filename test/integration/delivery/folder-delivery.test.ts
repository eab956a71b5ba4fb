import { existsSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { deliveryDestinationSchema, type FolderDestination } from '../../../src/config/delivery-schema.js';
import { probeDestination } from '../../../src/delivery/probe-destination.js';
import { deliverTo } from '../../support/delivery/deliver.js';
import { sha256, writeReportFolder } from '../../support/delivery/report-folder.js';

/**
 * Delivery to a folder (a mounted share) with the semantics of the others: published by one
 * rename, checked against the manifest, nothing sent when unchanged, a damaged copy replaced,
 * a closed period never overwritten, a report folder whose file does not match its manifest never
 * published.
 */

const out = mkdtempSync(join(tmpdir(), 'payexport-folder-src-'));
const share = mkdtempSync(join(tmpdir(), 'payexport-share-'));
const dest = deliveryDestinationSchema.parse({ kind: 'folder', name: 'share', path: share }) as FolderDestination;

describe('folder delivery', () => {
  it('publishes the folder whole, then sends nothing while it is unchanged', async () => {
    const dir = writeReportFolder(out, { job: 'export', folder: '2026-10-01_2026-10-31', files: { 'payments.csv': 'a\r\n', 'report.xlsx': 'PK…' } });
    expect(await deliverTo(dest, dir)).toMatchObject({ outcome: 'delivered', files_sent: 3 });
    expect(readdirSync(join(share, 'export'))).toEqual(['2026-10-01_2026-10-31']);
    expect(readFileSync(join(share, 'export/2026-10-01_2026-10-31/manifest.json')).equals(readFileSync(join(dir, 'manifest.json')))).toBe(true);
    expect(await deliverTo(dest, dir)).toMatchObject({ outcome: 'unchanged', files_sent: 0 });
  });

  it('replaces a damaged delivered copy', async () => {
    const dir = writeReportFolder(out, { job: 'nightly', folder: '2026-11-20', files: { 'payments.csv': 'good\r\n' } });
    await deliverTo(dest, dir);
    writeFileSync(join(share, 'nightly/2026-11-20/payments.csv'), 'tampered\r\n');
    expect(await deliverTo(dest, dir)).toMatchObject({ outcome: 'delivered' });
    expect(readFileSync(join(share, 'nightly/2026-11-20/payments.csv'), 'utf8')).toBe('good\r\n');
    expect(readdirSync(join(share, 'nightly'))).toEqual(['2026-11-20']);
  });

  it('never publishes a folder whose file does not match its manifest', async () => {
    const dir = writeReportFolder(out, { job: 'nightly', folder: '2026-11-21', files: { 'payments.csv': 'x\r\n' } });
    writeFileSync(join(dir, 'payments.csv'), 'changed after the run\r\n');
    const record = await deliverTo(dest, dir, { attempts: 2 });
    expect(record.outcome).toBe('failed');
    expect(record.detail).toContain(`the manifest says ${sha256('x\r\n')}`);
    expect(existsSync(join(share, 'nightly/2026-11-21'))).toBe(false);
  });

  it('keeps a closed period as delivered and takes its amendment beside it', async () => {
    const first = writeReportFolder(join(out, 'c1'), { folder: '2026-09', closed: true, files: { 'payments.csv': 'v1\r\n' } });
    await deliverTo(dest, first);
    const other = writeReportFolder(join(out, 'c2'), { folder: '2026-09', closed: true, files: { 'payments.csv': 'v2\r\n' } });
    expect((await deliverTo(dest, other)).outcome).toBe('failed');
    const amended = writeReportFolder(join(out, 'c2'), { folder: '2026-09.amended-1', closed: true, files: { 'payments.csv': 'v2\r\n' } });
    expect((await deliverTo(dest, amended)).outcome).toBe('delivered');
    expect(readFileSync(join(share, 'month-end/2026-09/payments.csv'), 'utf8')).toBe('v1\r\n');
    expect(readFileSync(join(share, 'month-end/2026-09.amended-1/payments.csv'), 'utf8')).toBe('v2\r\n');
  });

  it('probes a share: writable, or the fix', async () => {
    expect(await probeDestination(dest, { env: {}, cwd: process.cwd() })).toMatchObject({ ok: true });
    const blocked = join(share, 'a-file');
    writeFileSync(blocked, '');
    const result = await probeDestination({ ...dest, path: join(blocked, 'sub') }, { env: {}, cwd: process.cwd() });
    expect(result).toMatchObject({ ok: false });
    expect(result.ok ? '' : result.fix).toMatch(/mount the share|create/);
  });
});
