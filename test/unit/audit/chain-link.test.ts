import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { chainLinkOf, isChainRecord, sha256Hex } from '../../../src/audit/chain-link.js';
import { nextChainLink, readJobFolders } from '../../../src/sinks/close-chain.js';

/**
 * One link of the chain of closes (docs/audit.md#the-chain-of-closes) on its own: which manifests
 * are records (closes and amendments, not the runs that close nothing), which link shapes are read
 * and which are not, and the link a new record gets — after the record with the highest sequence
 * number under the job folder (not the latest period: an amendment of September after October's
 * close follows October), with the sha256 of that record's exact manifest bytes.
 */

const base = mkdtempSync(join(tmpdir(), 'payexport-chain-link-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));

describe('chainLinkOf', () => {
  it('reads the first link and a later one', () => {
    expect(chainLinkOf({ chain: { seq: 1, previous: null } })).toEqual({ seq: 1, previous: null });
    expect(chainLinkOf({ chain: { seq: 3, previous: { folder: '2026-10', manifest_sha256: 'ab' }, extra: true } })).toEqual({ seq: 3, previous: { folder: '2026-10', manifest_sha256: 'ab' } });
  });

  it.each([
    ['no chain', {}],
    ['a null chain', { chain: null }],
    ['seq 0', { chain: { seq: 0, previous: null } }],
    ['a fractional seq', { chain: { seq: 1.5, previous: null } }],
    ['seq as text', { chain: { seq: '2', previous: null } }],
    ['no previous at all', { chain: { seq: 2 } }],
    ['a previous without its digest', { chain: { seq: 2, previous: { folder: '2026-09' } } }],
    ['a previous digest that is a number', { chain: { seq: 2, previous: { folder: '2026-09', manifest_sha256: 12 } } }],
  ])('%s: no link', (_label, manifest) => {
    expect(chainLinkOf(manifest as Record<string, unknown>)).toBeNull();
  });
});

describe('isChainRecord', () => {
  it('a close (with or without open items) and an amendment are records; an export, a nightly and a not-closed month-end are not', () => {
    expect(isChainRecord({ close: { state: 'closed' } })).toBe(true);
    expect(isChainRecord({ close: { state: 'closed_with_open_items' } })).toBe(true);
    expect(isChainRecord({ close: { state: 'not_a_closing_run' }, amendment: 2 })).toBe(true);
    expect(isChainRecord({ close: { state: 'not_closed' } })).toBe(false);
    expect(isChainRecord({ close: { state: 'not_a_closing_run' }, amendment: null })).toBe(false);
    expect(isChainRecord({ amendment: 0 })).toBe(false);
    expect(isChainRecord({})).toBe(false);
  });
});

describe('nextChainLink over a job folder', () => {
  const write = (jobDir: string, folder: string, manifest: Record<string, unknown> | string): Buffer => {
    mkdirSync(join(jobDir, folder), { recursive: true });
    const bytes = Buffer.from(typeof manifest === 'string' ? manifest : `${JSON.stringify(manifest, null, 2)}\n`);
    writeFileSync(join(jobDir, folder, 'manifest.json'), bytes);
    return bytes;
  };

  it('an empty or missing job folder: the first link', async () => {
    expect(await nextChainLink(join(base, 'missing'))).toEqual({ seq: 1, previous: null });
    mkdirSync(join(base, 'empty'));
    expect(await nextChainLink(join(base, 'empty'))).toEqual({ seq: 1, previous: null });
  });

  it('follows the record with the highest seq, by the sha256 of its exact bytes; folders without a link, hidden ones, no manifest or bad JSON are passed over', async () => {
    const jobDir = join(base, 'month-end');
    write(jobDir, '2026-09', { close: { state: 'closed' }, chain: { seq: 1, previous: null } });
    write(jobDir, '2026-10', { close: { state: 'closed' }, chain: { seq: 2, previous: { folder: '2026-09', manifest_sha256: 'x' } } });
    // September amended after October's close: the chain follows publication, not the calendar
    const amended = write(jobDir, '2026-09.amended-1', `{"amendment":1,"chain":{"seq":3,"previous":{"folder":"2026-10","manifest_sha256":"y"}}}`);
    write(jobDir, '2026-11', { close: { state: 'not_closed' } });
    write(jobDir, '.2026-12.tmp-123', { close: { state: 'closed' }, chain: { seq: 9, previous: null } });
    write(jobDir, '2026-08', '{ not json');
    mkdirSync(join(jobDir, '2026-07'));
    expect(await nextChainLink(jobDir)).toEqual({ seq: 4, previous: { folder: '2026-09.amended-1', manifest_sha256: createHash('sha256').update(amended).digest('hex') } });
    expect(sha256Hex(amended)).toBe(createHash('sha256').update(amended).digest('hex'));
    expect((await readJobFolders(jobDir)).map((f) => f.name)).toEqual(['2026-09', '2026-09.amended-1', '2026-10', '2026-11']);
  });
});
