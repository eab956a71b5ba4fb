/**
 * Would git commit this file? A key file inside a checkout that git does not ignore goes into
 * the history with the next `git add .`, and a key in a history is a key to rotate. Asked of git
 * itself (`rev-parse`, `ls-files`, `check-ignore`), so every .gitignore, .git/info/exclude and
 * global excludes file counts exactly as git counts it. Without git on the machine, a `.git`
 * folder above the file is all that can be known.
 */
import { execFileSync } from 'node:child_process';
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

export type GitTracking =
  | { kind: 'outside' }
  /** in a checkout, and ignored */
  | { kind: 'ignored'; root: string }
  /** in a checkout, not ignored: `git add .` would commit it */
  | { kind: 'untracked'; root: string }
  /** already committed or staged */
  | { kind: 'tracked'; root: string }
  /** a `.git` folder above it, but no git to ask */
  | { kind: 'unknown'; root: string };

/** exit status of git, or null when git is not installed */
function git(dir: string, args: readonly string[]): { status: number; stdout: string } | null {
  try {
    const stdout = execFileSync('git', ['-C', dir, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: 10_000 });
    return { status: 0, stdout };
  } catch (error) {
    const e = error as NodeJS.ErrnoException & { status?: number | null; stdout?: string };
    if (e.code === 'ENOENT') return null;
    return { status: e.status ?? 128, stdout: e.stdout ?? '' };
  }
}

function nearestCheckout(dir: string): string | null {
  for (let at = dir; ; at = dirname(at)) {
    if (existsSync(join(at, '.git'))) return at;
    if (dirname(at) === at) return null;
  }
}

/** How git sees `path` (absolute; the file need not exist yet, its folder must). */
export function gitTracking(path: string): GitTracking {
  const dir = dirname(path);
  const name = basename(path);
  const top = git(dir, ['rev-parse', '--show-toplevel']);
  if (top === null) {
    const root = nearestCheckout(dir);
    return root === null ? { kind: 'outside' } : { kind: 'unknown', root };
  }
  if (top.status !== 0) return { kind: 'outside' };
  const root = top.stdout.trim();
  if (git(dir, ['ls-files', '--error-unmatch', '--', name])?.status === 0) return { kind: 'tracked', root };
  return git(dir, ['check-ignore', '-q', '--', name])?.status === 0 ? { kind: 'ignored', root } : { kind: 'untracked', root };
}

/** Adds `/<name>` to the .gitignore of the file's folder (created if missing); returns that .gitignore. */
export function ignoreInGit(path: string): string {
  const file = join(dirname(path), '.gitignore');
  const entry = `/${basename(path)}`;
  const text = existsSync(file) ? readFileSync(file, 'utf8') : '';
  if (!text.split(/\r?\n/).includes(entry)) appendFileSync(file, `${text === '' || text.endsWith('\n') ? '' : '\n'}${entry}\n`);
  return file;
}
