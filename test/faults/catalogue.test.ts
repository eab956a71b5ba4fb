import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EXIT_CODE_MEANINGS } from '../../src/util/exit-codes.js';
import { ROOT } from '../support/cli/cli.js';

/**
 * docs/reliability.md stays true: every test file a catalogue row names exists (rows of branch
 * `xtests` name files of that branch's test/integration/extract/), every exit code of the table is
 * provoked by a passing case, and the headline counts exactly the passing and long-tail rows.
 */

const doc = readFileSync(join(ROOT, 'docs/reliability.md'), 'utf8');
const STATUSES = ['passing', 'long tail', 'xtests', 'not covered', 'n/a'] as const;

interface Row {
  id: string;
  exit: string;
  where: string;
  status: string;
}

const catalogue = doc.slice(doc.indexOf('## Catalogue'), doc.indexOf('## Bugs this suite found'));
const rows: Row[] = catalogue
  .split('\n')
  .filter((line) => line.startsWith('| ') && !line.startsWith('| id ') && !line.startsWith('|---'))
  .map((line) => {
    const cells = line.slice(2, -2).split(' | ');
    expect(cells, line).toHaveLength(6);
    const [id, , , exit, where, status] = cells as [string, string, string, string, string, string];
    return { id, exit, where, status: status.split(':')[0]!.trim() };
  });

describe('docs/reliability.md', () => {
  it('lists the catalogue with a known status on every row', () => {
    expect(rows.length).toBeGreaterThan(80);
    for (const row of rows) expect(STATUSES, row.id).toContain(row.status);
    expect(new Set(rows.map((r) => r.id)).size, 'ids are unique').toBe(rows.length);
  });

  it('names test files that exist', () => {
    for (const row of rows) {
      const paths = [...row.where.matchAll(/`(test\/[^`]+)`/g)].map((m) => m[1]!);
      if (row.status === 'passing' || row.status === 'long tail') expect(paths.length, `${row.id} says where`).toBeGreaterThan(0);
      for (const path of paths) {
        if (path.includes('*')) continue;
        // files of branch xtests are named with a leading `xtests` in the cell
        const onXtests = path.startsWith('test/integration/extract/');
        if (!onXtests) expect(existsSync(join(ROOT, path)), `${row.id}: ${path}`).toBe(true);
      }
    }
  });

  it('provokes every exit code of the table (but 1, bugs only) with a passing case', () => {
    const provoked = new Set<number>();
    for (const row of rows.filter((r) => r.status === 'passing')) {
      if (row.exit === 'all') Object.keys(EXIT_CODE_MEANINGS).forEach((code) => provoked.add(Number(code)));
      for (const code of row.exit.split('/')) if (/^\d+$/.test(code)) provoked.add(Number(code));
    }
    for (const code of Object.keys(EXIT_CODE_MEANINGS).map(Number).filter((c) => c !== 1)) expect(provoked, `exit ${code}`).toContain(code);
  });

  it('states the headline over exactly the passing and long-tail scenarios', () => {
    const counted = rows.filter((r) => r.status === 'passing' || r.status === 'long tail').length;
    expect(doc).toContain(`**${counted} fault/abuse scenarios: 0 rows lost, 0 duplicated, 0 partial reports, 0 secret leaks**`);
  });
});
