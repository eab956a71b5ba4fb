import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { gitTracking, ignoreInGit } from '../../../src/setup/git-tracking.js';

/** How git sees a key file, asked of git itself; the .gitignore entry init writes makes it ignored. */

const hasGit = (() => {
  try {
    execFileSync('git', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();
const dir = mkdtempSync(join(tmpdir(), 'payexport-git-tracking-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe.skipIf(!hasGit)('gitTracking', () => {
  it('outside a checkout; untracked; ignored once init writes its entry; tracked once committed', () => {
    expect(gitTracking(join(dir, 'k.api-key')).kind).toBe('outside');
    const repo = join(dir, 'repo');
    execFileSync('git', ['init', '-q', repo]);
    const key = join(repo, 'k.api-key');
    writeFileSync(key, 'secret\n', { mode: 0o600 });
    expect(gitTracking(key).kind).toBe('untracked');
    const gitignore = ignoreInGit(key);
    ignoreInGit(key);
    expect(readFileSync(gitignore, 'utf8')).toBe('/k.api-key\n');
    expect(gitTracking(key).kind).toBe('ignored');
    const other = join(repo, 'o.api-key');
    writeFileSync(other, 'secret\n');
    execFileSync('git', ['-C', repo, 'add', 'o.api-key']);
    expect(gitTracking(other).kind).toBe('tracked');
  });
});
