/**
 * LibreOffice headless renders the workbook's Fee charts sheet (alone and on one page for the
 * picture: the export draws the first page only) to PNG, and the fee charts are in the picture: the
 * same sheet without its drawing renders to an image of the same size in which the charts' series
 * colours are absent, while the charted one shows each colour over many pixels. One LibreOffice
 * start converts both workbooks. Skipped, with the
 * reason, where soffice or its graphic export filter is missing; under PAYEXPORT_REQUIRE_READERS=1
 * (CI) that is a failure instead.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { BILLED_COLOR, COMPUTED_COLOR, FEE_CHARTS_SHEET, NETWORK_COLOR, PROCESSING_COLOR } from '../../../src/sinks/fee-charts.js';
import { writeChartReport } from '../../support/sinks/write-chart-report.js';
import { countColor, decodePng, isPng } from '../../support/readers/png.js';
import { rendererMissing } from '../../support/readers/readers.js';
import { sheetOnOnePage } from '../../support/readers/libreoffice.js';

const run = promisify(execFile);
const missing = rendererMissing();
const roots: string[] = [];

afterAll(async () => {
  for (const r of roots) await rm(r, { recursive: true, force: true });
});

describe.skipIf(missing !== null)(`the fee charts rendered by LibreOffice${missing === null ? '' : ` (skipped: ${missing})`}`, () => {
  it('draws every chart colour on the Fee charts sheet, and none of them without its charts', { timeout: 180_000 }, async () => {
    const root = await mkdtemp(join(tmpdir(), 'payexport-chart-render-'));
    roots.push(root);
    // the sheet prints on as many pages as it needs; the PNG export draws the first page only
    const book = join((await writeChartReport(join(root, 'with'))).dir, 'report.xlsx');
    sheetOnOnePage(book, join(root, 'charted.xlsx'), FEE_CHARTS_SHEET);
    sheetOnOnePage(book, join(root, 'plain.xlsx'), FEE_CHARTS_SHEET, true);
    await run('soffice', ['--headless', `-env:UserInstallation=file://${join(root, 'lo-profile')}`, '--convert-to', 'png', '--outdir', join(root, 'png'), 'charted.xlsx', 'plain.xlsx'], { cwd: root, timeout: 170_000 });

    const bytes = { charted: await readFile(join(root, 'png', 'charted.png')), plain: await readFile(join(root, 'png', 'plain.png')) };
    expect(isPng(bytes.charted) && isPng(bytes.plain)).toBe(true);
    const charted = decodePng(bytes.charted);
    const plain = decodePng(bytes.plain);
    expect([charted.width, charted.height]).toEqual([plain.width, plain.height]);
    for (const color of [PROCESSING_COLOR, NETWORK_COLOR, BILLED_COLOR, COMPUTED_COLOR]) {
      const added = countColor(charted, color) - countColor(plain, color);
      expect({ color, added: added > 200 }).toEqual({ color, added: true });
    }
  });
});
