import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Worksheet } from 'exceljs';
import { compileTable } from '../../../src/sinks/render-cells.js';
import { PAYMENTS_TABLE } from '../../../src/sinks/tables/index.js';
import { StreamingWorkbook } from '../../../src/sinks/xlsx-workbook.js';
import { XlsxTableSheets } from '../../../src/sinks/xlsx-table-sheets.js';
import { ZonedClock } from '../../../src/model/zoned-time.js';
import { barChartXml } from '../../../src/sinks/xlsx-chart-xml.js';
import { readWorkbook } from '../../support/sinks/read-back.js';
import { syntheticPayments } from '../../support/sinks/rows.js';
import { zipEntries } from '../../support/sinks/zip-entries.js';

const ctx = { clock: new ZonedClock('UTC'), assetDecimals: new Map<string, number>(), assetNames: new Map<string, string>(), asOf: '2026-11-01T00:00:00.000000Z' };
const roots: string[] = [];
afterAll(async () => {
  for (const r of roots) await rm(r, { recursive: true, force: true });
});

/** Bytes of uncompressed XML waiting between exceljs and the compressor (the buffer `pace` bounds). */
function inFlight(sheet: Worksheet): number {
  return (sheet as unknown as { stream: { pipes: { _writableState: { length: number } }[] } }).stream.pipes[0]?._writableState.length ?? 0;
}

describe('StreamingWorkbook', () => {
  it('bounds the XML waiting for the compressor, and waits for it (backpressure)', async () => {
    const root = await mkdtemp(join(tmpdir(), 'payexport-wb-'));
    roots.push(root);
    const limit = 64 * 1024;
    const workbook = StreamingWorkbook.open({ path: join(root, 'x.xlsx'), documentDate: new Date('2026-11-01T00:00:00Z'), creator: 'test', maxBytesInFlight: limit });
    let waits = 0;
    let worst = 0;
    const pace = workbook.pace.bind(workbook);
    workbook.pace = (sheet: Worksheet) => {
      const wait = pace(sheet);
      if (wait !== undefined) waits += 1;
      return wait?.then(() => {
        worst = Math.max(worst, inFlight(sheet));
      });
    };
    const sheets = new XlsxTableSheets(workbook, compileTable(PAYMENTS_TABLE, ctx));
    for (const row of syntheticPayments(6_000)) await sheets.write(row);
    await sheets.close();
    const overview = workbook.addFirstSheet('Overview', {});
    overview.addRow(['hello']).commit();
    await workbook.commitSheet(overview);
    const result = await workbook.commit();
    expect(waits).toBeGreaterThan(0);
    expect(worst).toBeLessThanOrEqual(limit);
    expect(result.sha256).toMatch(/^[0-9a-f]{64}$/);
    const wb = await readWorkbook(join(root, 'x.xlsx'));
    expect(wb.worksheets.map((w) => w.name)).toEqual(['Overview', 'Payments']);
    expect(wb.getWorksheet('Payments')?.rowCount).toBe(6_001);
  });

  it('finishes committing a sheet whose XML still exceeds the bound when it ends (an ended stream never drains)', async () => {
    const root = await mkdtemp(join(tmpdir(), 'payexport-wb-'));
    roots.push(root);
    const workbook = StreamingWorkbook.open({ path: join(root, 'x.xlsx'), documentDate: new Date('2026-11-01T00:00:00Z'), creator: 'test', maxBytesInFlight: 1 });
    const sheet = workbook.addSheet('Big', {});
    for (let i = 0; i < 2_000; i++) sheet.addRow([`row ${i}`, i, 'x'.repeat(200)]).commit();
    sheet.commit();
    // ended with its XML still waiting for the compressor: the case 'drain' never answers
    expect(inFlight(sheet)).toBeGreaterThan(1);
    await workbook.pace(sheet);
    const overview = workbook.addFirstSheet('Overview', {});
    overview.addRow(['hello']).commit();
    await workbook.commitSheet(overview);
    await workbook.commit();
    const wb = await readWorkbook(join(root, 'x.xlsx'));
    expect(wb.getWorksheet('Big')?.rowCount).toBe(2_000);
  });

  it('rejects a waiting writer when the output fails instead of hanging', async () => {
    const root = await mkdtemp(join(tmpdir(), 'payexport-wb-'));
    roots.push(root);
    const workbook = StreamingWorkbook.open({ path: join(root, 'missing-dir', 'x.xlsx'), documentDate: new Date('2026-11-01T00:00:00Z'), creator: 'test', maxBytesInFlight: 16 * 1024 });
    const sheets = new XlsxTableSheets(workbook, compileTable(PAYMENTS_TABLE, ctx));
    const write = async (): Promise<void> => {
      for (const row of syntheticPayments(50_000)) await sheets.write(row);
      await sheets.close();
      await workbook.commit();
    };
    await expect(write()).rejects.toMatchObject({ exitCode: 74, type: 'output_not_writable' });
  });

  it('adds charts to a sheet while streaming: the parts, their relationships, the content types and the <drawing> after the page setup', async () => {
    const root = await mkdtemp(join(tmpdir(), 'payexport-wb-'));
    roots.push(root);
    const path = join(root, 'c.xlsx');
    const workbook = StreamingWorkbook.open({ path, documentDate: new Date('2026-11-01T00:00:00Z'), creator: 'test' });
    const data = workbook.addSheet('Data', {});
    data.addRow(['day', 'fee']).commit();
    data.addRow(['2026-10-01', 1.5]).commit();
    await workbook.commitSheet(data);
    const overview = workbook.addFirstSheet('Overview', { pageSetup: { orientation: 'portrait', fitToPage: true } });
    overview.addRow(['hello']).commit();
    const chart = barChartXml({
      title: 'fees',
      direction: 'col',
      grouping: 'stacked',
      numberFormat: '#,##0.00',
      categories: { ref: "'Data'!$A$2", values: ['2026-10-01'] },
      series: [{ name: { ref: "'Data'!$B$1", values: ['fee'] }, values: { ref: "'Data'!$B$2", values: ['1.5'] }, color: '2563EB' }],
    });
    workbook.addCharts(overview, [
      { anchor: { fromCol: 0, fromRow: 2, toCol: 3, toRow: 12 }, xml: chart },
      { anchor: { fromCol: 3, fromRow: 2, toCol: 6, toRow: 12 }, xml: chart },
    ]);
    await workbook.commitSheet(overview);
    expect(() => workbook.addCharts(overview, [{ anchor: { fromCol: 0, fromRow: 0, toCol: 1, toRow: 1 }, xml: chart }])).toThrow(/committed/);
    await workbook.commit();

    const entries = new Map(zipEntries(await readFile(path)).map((e) => [e.name, e]));
    const text = (name: string): string => entries.get(name)?.content().toString('utf8') ?? '';
    expect([...entries.keys()].filter((n) => /chart|drawing|sheet1.xml.rels/.test(n)).sort()).toEqual(['xl/charts/chart1.xml', 'xl/charts/chart2.xml', 'xl/drawings/_rels/drawing1.xml.rels', 'xl/drawings/drawing1.xml', 'xl/worksheets/_rels/sheet1.xml.rels']);
    expect(text('xl/worksheets/sheet1.xml')).toMatch(/<pageSetup [^>]*\/><drawing r:id="rId1"\/><\/worksheet>$/);
    expect(text('xl/worksheets/_rels/sheet1.xml.rels')).toContain('Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/drawing" Target="../drawings/drawing1.xml"');
    expect(text('xl/drawings/_rels/drawing1.xml.rels')).toContain('Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/chart" Target="../charts/chart2.xml"');
    const types = text('[Content_Types].xml');
    for (const part of ['/xl/drawings/drawing1.xml', '/xl/charts/chart1.xml', '/xl/charts/chart2.xml']) expect(types).toContain(`<Override PartName="${part}"`);
    // every part carries the document date, like the rest of the zip
    expect(new Set([...entries.values()].map((e) => e.modified))).toEqual(new Set(['2026-11-01T00:00:00']));
    const wb = await readWorkbook(path);
    expect(wb.worksheets.map((w) => w.name)).toEqual(['Overview', 'Data']);
  });
});
