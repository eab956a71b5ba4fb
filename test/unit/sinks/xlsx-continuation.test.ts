import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type ExcelJS from 'exceljs';
import { openReportFolder } from '../../../src/sinks/report-folder.js';
import { PAYMENTS_TABLE } from '../../../src/sinks/tables/index.js';
import { verify } from '../../../src/sinks/verify.js';
import { readCsv, readWorkbook } from '../../support/sinks/read-back.js';
import { syntheticPayments } from '../../support/sinks/rows.js';
import { fixtureOptions } from '../../support/sinks/write-report.js';

const roots: string[] = [];
afterAll(async () => {
  for (const r of roots) await rm(r, { recursive: true, force: true });
});

describe('sheet continuation past the row limit', () => {
  it('continues "Payments" in "Payments (2)", "Payments (3)", each with a header, in CSV order', async () => {
    const root = await mkdtemp(join(tmpdir(), 'payexport-cont-'));
    roots.push(root);
    const folder = await openReportFolder(fixtureOptions(root, { maxRowsPerSheet: 5 }));
    const payments = await folder.table(PAYMENTS_TABLE);
    await payments.writeAll(syntheticPayments(13));
    expect(await payments.close()).toEqual({ rows: 13 });
    const { dir, manifest } = await folder.publish({ parameters: {}, controlTotals: {}, checks: [] });

    const book = manifest.files.find((f) => f.path === 'report.xlsx');
    expect(book?.rows).toBe(13);
    expect(book?.sheets?.slice(0, 4)).toEqual([
      { name: 'Payments', rows: 5 },
      { name: 'Payments (2)', rows: 5 },
      { name: 'Payments (3)', rows: 5 },
      { name: 'Payments (4)', rows: 2 },
    ]);
    const wb = await readWorkbook(join(dir, 'report.xlsx'));
    expect(wb.worksheets.map((w) => w.name).slice(0, 5)).toEqual(['Overview', 'Payments', 'Payments (2)', 'Payments (3)', 'Payments (4)']);
    const ids: string[] = [];
    const csv = await readCsv(join(dir, 'payments.csv'));
    const idColumn = csv.header.indexOf('payment_id');
    for (const name of ['Payments', 'Payments (2)', 'Payments (3)', 'Payments (4)']) {
      const ws = wb.getWorksheet(name) as ExcelJS.Worksheet;
      expect(ws.getCell('A1').value).toBe('created_at');
      expect(ws.getCell(1, idColumn + 1).value).toBe('payment_id');
      expect(ws.views[0]).toMatchObject({ state: 'frozen', xSplit: 1, ySplit: 1 });
      for (let r = 2; r <= ws.rowCount; r++) ids.push(String(ws.getCell(r, idColumn + 1).value));
    }
    expect(ids).toEqual(csv.rows.map((r) => r[idColumn]));
    expect((await verify(dir)).ok).toBe(true);
  });

  it('refuses a limit Excel cannot open', async () => {
    const root = await mkdtemp(join(tmpdir(), 'payexport-cont-'));
    roots.push(root);
    const folder = await openReportFolder(fixtureOptions(root, { maxRowsPerSheet: 2_000_000 }));
    await expect(folder.table(PAYMENTS_TABLE)).rejects.toThrow(RangeError);
    await folder.abort();
  });
});
