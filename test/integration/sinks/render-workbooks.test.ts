/**
 * scripts/render-workbooks.mjs (docs/reports.md "Looking at the workbook"): LibreOffice headless
 * prints a report workbook to PDF with its own page setup and pdftoppm turns the pages into PNG.
 * Runs where `soffice` and `pdftoppm` are installed (.ci/run installs both); elsewhere the skip
 * names what is missing, and under PAYEXPORT_REQUIRE_READERS=1 their absence fails instead.
 */
import { execFile, spawnSync } from 'node:child_process';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { writeSmallReport } from '../../support/sinks/write-report.js';

const run = promisify(execFile);
const absent = ['soffice', 'pdftoppm'].filter((tool) => spawnSync(tool, ['-v'], { stdio: 'ignore' }).error !== undefined);
const reason = absent.length === 0 ? null : `${absent.join(' and ')} not installed (apt-get install libreoffice-calc-nogui poppler-utils)`;
if (reason !== null && process.env['PAYEXPORT_REQUIRE_READERS'] === '1') throw new Error(`PAYEXPORT_REQUIRE_READERS=1 but ${reason}`);
const SCRIPT = join(import.meta.dirname, '../../../scripts/render-workbooks.mjs');

describe.skipIf(reason !== null)(`render-workbooks.mjs draws the workbook as PNG${reason === null ? '' : ` (skipped: ${reason})`}`, () => {
  const roots: string[] = [];
  afterAll(async () => {
    for (const r of roots) await rm(r, { recursive: true, force: true });
  });

  it('renders the Overview (page 1) and the next page to PNG', { timeout: 300_000 }, async () => {
    const root = await mkdtemp(join(tmpdir(), 'payexport-render-test-'));
    roots.push(root);
    const { dir } = await writeSmallReport(join(root, 'reports'));
    const out = join(root, 'png');
    const { stdout } = await run(process.execPath, [SCRIPT, '--pages', '2', '--dpi', '60', '--out', out, dir], { timeout: 280_000 });
    expect(stdout).toContain('report.xlsx →');
    const pngs = (await readdir(out)).filter((f) => f.endsWith('.png')).sort();
    // pdftoppm pads page numbers to the width of the PDF's last page number
    expect(pngs).toHaveLength(2);
    for (const png of pngs) expect(png).toMatch(/^month-end-2026-10-0*[12]\.png$/);
    for (const png of pngs) {
      const bytes = await readFile(join(out, png));
      expect(bytes.subarray(0, 8).toString('hex'), png).toBe('89504e470d0a1a0a');
      expect(bytes.length, png).toBeGreaterThan(2_000);
    }
  });

  it('exits 64 with its usage when called without a workbook', async () => {
    const result = await run(process.execPath, [SCRIPT]).catch((error: { code: number; stderr: string }) => error);
    expect(result).toMatchObject({ code: 64 });
  });
});
