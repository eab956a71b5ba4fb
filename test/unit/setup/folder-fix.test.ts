import { mkdtempSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { folderFix } from '../../../src/setup/doctor/folder-fix.js';
import { folderFault } from '../../../src/setup/writable-folder.js';

/** The fix of a folder a run cannot write follows its cause, and the probe leaves nothing behind. */

const dir = mkdtempSync(join(tmpdir(), 'payexport-folder-fix-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('folderFix', () => {
  it.each([
    ['EROFS', /^\/mnt\/ro is on a read-only file system: remount it read-write, or point "out" at a folder this user can write$/],
    ['EACCES', /may not write in \/mnt\/ro: give it write permission there \(chown or chmod\), or point "out"/],
    ['ENOSPC', /^the file system of \/mnt\/ro is full \(or over quota\): free space there/],
    ['ENOTDIR', /^\/mnt\/ro is a file where a folder is needed: move that file away/],
    ['ENOENT', /^reports cannot be created where it is \(\/mnt\/ro takes no new folders\): point "out" at a folder on an ordinary disk$/],
    ['EIO', /^check \/mnt\/ro \(EIO\), or point "out"/],
  ])('%s', (code, fix) => {
    expect(folderFix({ code, path: '/mnt/ro', message: '' }, 'reports', 'out')).toMatch(fix);
  });
});

describe('folderFault', () => {
  it('a folder that can be made: null, and the levels made for the probe are taken back', async () => {
    expect(await folderFault(join(dir, 'a', 'b', 'c'), { keepCreated: false })).toBeNull();
    expect(existsSync(join(dir, 'a'))).toBe(false);
  });

  it('a file in the way: ENOTDIR, naming the file', async () => {
    writeFileSync(join(dir, 'blocker'), 'x');
    const fault = await folderFault(join(dir, 'blocker', 'reports'), { keepCreated: false });
    expect(fault?.code).toBe('ENOTDIR');
    expect(fault?.path).toBe(join(dir, 'blocker'));
  });
});
