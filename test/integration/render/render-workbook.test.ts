/**
 * scripts/render-workbook.sh: a report workbook rendered by LibreOffice headless to PDF and PNG
 * pages (runs only where soffice and pdftoppm are installed; the title says when it skips).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeSmallReport } from '../../support/sinks/write-report.js';

const SCRIPT = join(import.meta.dirname, '../../../scripts/render-workbook.sh');
const missing = ['soffice', 'pdftoppm'].filter((tool) => spawnSync('sh', ['-c', `command -v ${tool}`]).status !== 0);
if (missing.length > 0 && process.env['PAYEXPORT_REQUIRE_READERS'] === '1') throw new Error(`PAYEXPORT_REQUIRE_READERS=1 but no ${missing.join(', ')}`);
let root = '';

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'payexport-render-'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe.skipIf(missing.length > 0)(`rendering the workbook with LibreOffice${missing.length > 0 ? ` (skipped: no ${missing.join(', ')})` : ''}`, () => {
  it('prints every sheet to PNG pages', async () => {
    const { dir } = await writeSmallReport(join(root, 'out'));
    const pages = execFileSync(SCRIPT, [join(dir, 'report.xlsx'), join(root, 'png'), '40'], { encoding: 'utf8', timeout: 170_000 }).trim().split('\n');
    expect(pages.length).toBeGreaterThan(1);
    const first = await readFile(pages[0]!);
    expect(first.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
    expect(first.length).toBeGreaterThan(1_000);
  }, 180_000);
});
