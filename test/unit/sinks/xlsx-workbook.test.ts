import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Worksheet } from 'exceljs';
import { compileTable } from '../../../src/sinks/render-cells.js';
import { PAYMENTS_TABLE } from '../../../src/sinks/tables/index.js';
import { StreamingWorkbook } from '../../../src/sinks/xlsx-workbook.js';
import { XlsxTableSheets } from '../../../src/sinks/xlsx-table-sheets.js';
import { ZonedClock } from '../../../src/sinks/zoned-time.js';
import { readWorkbook } from '../../support/sinks/read-back.js';
import { syntheticPayments } from '../../support/sinks/rows.js';

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
});
