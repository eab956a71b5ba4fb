/**
 * A variant `npm test` skips runs in `npm run test:faults` (docs/testing.md): every test file that
 * keeps variants for the long runs — through test/support/long-runs.ts, the long-tail switch of the
 * fault suites, or the embedded engine's long chains — is among the files that script runs, so no
 * variant is skipped everywhere.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../../..');
const LONG_MARKERS = [/support\/long-runs\.js'/, /PAYEXPORT_FAULTS_LONG/, /LONG_TAIL/, /embedded: 'long'/];

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? testFiles(join(dir, e.name)) : e.name.endsWith('.test.ts') ? [join(dir, e.name)] : []));
}

describe('the long runs', () => {
  it("run every test file that keeps a variant for them (npm run test:faults's list)", () => {
    const script = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts['test:faults'] ?? '';
    expect(script).toContain('PAYEXPORT_FAULTS_LONG=1 vitest run');
    const listed = script.split(/\s+/).filter((word) => word.startsWith('test/'));
    const covered = (file: string): boolean => listed.some((entry) => file === entry || file.startsWith(`${entry}/`));
    const keeping = testFiles(join(ROOT, 'test'))
      .map((file) => relative(ROOT, file))
      .filter((file) => !file.startsWith('test/unit/layout/'))
      .filter((file) => LONG_MARKERS.some((marker) => marker.test(readFileSync(join(ROOT, file), 'utf8'))));
    expect(keeping.length).toBeGreaterThan(10);
    expect(keeping.filter((file) => !covered(file))).toEqual([]);
  });
});
