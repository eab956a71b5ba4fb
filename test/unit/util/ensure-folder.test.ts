import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ensureFolder, ensureFolderSync } from '../../../src/util/ensure-folder.js';

const root = mkdtempSync(join(tmpdir(), 'payexport-ensure-folder-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

// procfs answers ENOENT to a mkdir of a child of an existing folder: Node's recursive mkdir retries that for ever
const procfs = existsSync('/proc/self') ? null : 'no procfs on this machine';

describe.each([
  ['ensureFolder', (path: string, mode?: number) => ensureFolder(path, mode)],
  ['ensureFolderSync', async (path: string, mode?: number) => ensureFolderSync(path, mode)],
] as const)('%s', (name, ensure) => {
  it('creates every missing level with the mode asked for, and is idempotent', async () => {
    const target = join(root, name, 'a', 'b', 'c');
    await ensure(target, 0o750);
    await ensure(target, 0o750);
    expect(statSync(target).isDirectory()).toBe(true);
    expect(statSync(join(root, name, 'a')).mode & 0o777).toBe(0o750);
  });

  it('fails with ENOTDIR when a level is a file', async () => {
    const file = join(root, `${name}-file`);
    writeFileSync(file, '');
    await expect(ensure(join(file, 'x', 'y'))).rejects.toMatchObject({ code: 'ENOTDIR' });
  });

  it.skipIf(procfs !== null)(`fails once, with the path, where procfs refuses (never loops)${procfs ? ` — skipped: ${procfs}` : ''}`, async () => {
    await expect(ensure('/proc/payexport-forbidden/x')).rejects.toMatchObject({ code: 'ENOENT', path: '/proc/payexport-forbidden' });
  });
});
