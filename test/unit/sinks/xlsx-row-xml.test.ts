/**
 * The direct row XML (xlsx-row-xml.ts) against exceljs's own Row model: every table of the golden
 * fixture (hostile text, huge and negative amounts, notes on text amounts, nulls, booleans) plus
 * synthetic payments, written both ways — the whole workbooks must be byte-identical.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import fc from 'fast-check';
import JSZip from 'jszip';
import { afterAll, describe, expect, it } from 'vitest';
import { compileTable, type RenderContext } from '../../../src/sinks/render-cells.js';
import { BALANCES_TABLE, EXCEPTIONS_TABLE, FEES_TABLE, LEDGER_TABLE, OPEN_ITEMS_TABLE, PAYMENTS_TABLE, SUMMARY_CHECK_TABLE } from '../../../src/sinks/tables/index.js';
import { StreamingWorkbook } from '../../../src/sinks/xlsx-workbook.js';
import { XlsxTableSheets } from '../../../src/sinks/xlsx-table-sheets.js';
import { ZonedClock } from '../../../src/model/zoned-time.js';
import { ASSETS, paymentRow, smallFixture, syntheticPayments, BEYOND_2_53 } from '../../support/sinks/rows.js';

const roots: string[] = [];
afterAll(async () => {
  await Promise.all(roots.map((r) => rm(r, { recursive: true, force: true })));
});

const ctx: RenderContext = {
  clock: new ZonedClock('Europe/Berlin'),
  assetDecimals: new Map(ASSETS.map((a) => [a.currency, a.decimal_display ?? 0])),
  assetNames: new Map(ASSETS.map((a) => [a.currency, a.name ?? ''])),
  asOf: '2026-11-01T00:00:00.000000Z',
};

async function workbook(path: string, direct: boolean): Promise<void> {
  const f = smallFixture();
  // more text amounts than a sheet gets notes for: rows after the 200th go the direct way
  const manyHuge = Array.from({ length: 260 }, (_, i) => paymentRow({ payment_id: `22222222-0000-4000-8000-${String(i).padStart(12, '0')}`, principal_base: BEYOND_2_53 * 1000n + BigInt(i) }));
  const tables: Array<[unknown, readonly unknown[]]> = [
    [PAYMENTS_TABLE, [...f.payments, ...manyHuge, ...syntheticPayments(500)]],
    [LEDGER_TABLE, f.ledger],
    [FEES_TABLE, f.fees],
    [BALANCES_TABLE, f.balances],
    [SUMMARY_CHECK_TABLE, f.summary],
    [EXCEPTIONS_TABLE, f.findings],
    [OPEN_ITEMS_TABLE, f.openItems],
  ];
  const wb = StreamingWorkbook.open({ path, documentDate: new Date('2026-11-01T00:00:00Z'), creator: 'test' });
  for (const [spec, rows] of tables) {
    const sheets = new XlsxTableSheets(wb, compileTable(spec as typeof PAYMENTS_TABLE, ctx), 400, direct);
    for (const row of rows) await sheets.write(row as never);
    await sheets.close();
  }
  await wb.commit();
}

describe('direct row XML', () => {
  it('writes the same workbook, byte for byte, as exceljs row by row', async () => {
    const root = await mkdtemp(join(tmpdir(), 'payexport-rowxml-'));
    roots.push(root);
    await workbook(join(root, 'direct.xlsx'), true);
    await workbook(join(root, 'exceljs.xlsx'), false);
    const direct = await JSZip.loadAsync(await readFile(join(root, 'direct.xlsx')));
    const reference = await JSZip.loadAsync(await readFile(join(root, 'exceljs.xlsx')));
    const names = Object.keys(reference.files).sort();
    expect(Object.keys(direct.files).sort()).toEqual(names);
    // the payments table spans sheets (400 rows each) and has notes: the comments parts must match too
    expect(names.some((n) => n.includes('comments'))).toBe(true);
    expect(names.filter((n) => /worksheets\/sheet\d+\.xml$/.test(n)).length).toBeGreaterThanOrEqual(8);
    for (const name of names) {
      if (reference.files[name]?.dir) continue;
      const a = await direct.file(name)!.async('string');
      const b = await reference.file(name)!.async('string');
      expect(a, name).toBe(b);
    }
  });
});

describe('number cells', () => {
  // the writer puts a number's text into the XML as it is: exceljs's escaping must leave it alone
  const { xmlEncode } = createRequire(import.meta.url)('exceljs/lib/utils/utils.js') as { xmlEncode(text: string): string };

  it('the text of any number (a date cell holds its Excel serial) is its own XML encoding', () => {
    for (const n of [0, -0, 1, -1, 0.1, -12.5, 1e21, -1e-7, 5e-324, Number.MAX_VALUE, 2 ** 53 + 2, NaN, Infinity, -Infinity]) {
      expect(xmlEncode(String(n))).toBe(String(n));
    }
    fc.assert(
      fc.property(fc.double(), (n) => {
        expect(xmlEncode(String(n))).toBe(String(n));
      }),
    );
  });
});
