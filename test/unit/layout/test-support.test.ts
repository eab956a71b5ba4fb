import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, posix, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * Test helpers have one home, test/support/ (the fault suite keeps its scenario helpers in
 * test/faults/support/), and a helper never imports from a suite: a suite may change or go away
 * without breaking the files other suites lean on. A shared suite body is named `*-suite.ts` and
 * stays beside the test files that run it.
 */

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../../..');
const SUPPORT_HOMES = ['test/support/', 'test/faults/support/'];
const SPECIFIER = /(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+)'/g;

function filesUnder(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { recursive: true, encoding: 'utf8' })
    .map((entry) => posix.join(dir, entry.split(sep).join('/')))
    .filter((path) => path.endsWith('.ts'));
}

const testTree = filesUnder('test');
const helpers = testTree.filter((path) => !path.endsWith('.test.ts'));
const homeOf = (path: string): string | undefined => SUPPORT_HOMES.find((home) => path.startsWith(home));

/** The repository paths a module imports by relative specifier, `.js` read as the `.ts` source. */
function importsOf(path: string): string[] {
  const text = readFileSync(join(ROOT, path), 'utf8');
  return [...text.matchAll(SPECIFIER)].map((match) => relative(ROOT, join(ROOT, dirname(path), (match[1] as string).replace(/\.js$/, '.ts'))).split(sep).join('/'));
}

describe('test helpers', () => {
  it('live under test/support/ (or the fault suite\'s own support folder), apart from shared suite bodies', () => {
    expect(helpers.length).toBeGreaterThan(0);
    const stray = helpers.filter((path) => homeOf(path) === undefined && !path.endsWith('-suite.ts'));
    expect(stray).toEqual([]);
  });

  it('import no suite: only src/, test/support/ and their own home', () => {
    const supportFiles = helpers.filter((path) => homeOf(path) !== undefined);
    expect(supportFiles.length).toBeGreaterThan(0);
    const wrong = supportFiles.flatMap((path) =>
      importsOf(path)
        .filter((target) => target.startsWith('test/'))
        .filter((target) => target.endsWith('.test.ts') || !(target.startsWith('test/support/') || target.startsWith(homeOf(path) as string)))
        .map((target) => `${path} -> ${target}`),
    );
    expect(wrong).toEqual([]);
  });
});
