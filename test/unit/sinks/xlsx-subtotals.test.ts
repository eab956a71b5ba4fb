/**
 * Subtotal rows of a table sheet (xlsx-subtotals.ts), read back by openpyxl (software that did not
 * write them): a bold row after each group with SUBTOTAL formulas over the group's cells and their
 * exact sums cached, a total per key summing the subtotal rows, an unknown amount leaving its sum
 * empty, values only where a group continues on the next sheet; the CSV holds the records only,
 * and `payexport verify` agrees with the manifest's row counts.
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { amount, code, decimal, id, type TableSpec } from '../../../src/model/column-spec.js';
import { openReportFolder } from '../../../src/sinks/report-folder.js';
import { verify } from '../../../src/sinks/verify.js';
import { readCsv } from '../../support/sinks/read-back.js';
import { fixtureOptions } from '../../support/sinks/write-report.js';
import { pythonForXlsx, QUIET_OPENPYXL, readersMissing, readXlsxWithOpenpyxl, sheetNamed, type OpenpyxlCell } from '../../support/readers/readers.js';

interface Holding {
  wallet: string;
  currency: string;
  units: bigint;
  cost: string | null;
}

const SPEC: TableSpec<Holding> = {
  id: 'holdings',
  file: 'holdings.csv',
  sheet: 'Holdings',
  rowIs: 'holding',
  columns: [
    id('wallet_id', 'wallet', (r) => r.wallet),
    code('currency', 'currency', (r) => r.currency),
    code('kind', 'lot, subtotal or total', () => 'lot'),
    ...amount<Holding>('units', 'units', (r) => r.units, (r) => r.currency),
    decimal('cost', 'cost', (r) => r.cost),
  ],
  subtotals: {
    groupOf: (r) => `${r.wallet}|${r.currency}`,
    sums: ['units_base', 'units', 'cost'],
    mark: { column: 'kind', text: 'subtotal' },
    label: (first, rows) => ({ wallet_id: first.wallet, currency: first.currency, kind: 'subtotal', wallet_name: `${rows} rows` }),
    totalsBy: { column: 'currency', label: (currency, groups) => ({ currency, kind: 'total', wallet_name: `${groups} wallets` }) },
  },
};

const W1 = '11111111-1111-4111-8111-111111111111';
const W2 = '22222222-2222-4222-8222-222222222222';
const W3 = '33333333-3333-4333-8333-333333333333';
const ROWS: Holding[] = [
  { wallet: W1, currency: 'btc', units: 100_000_000_000n, cost: '60000.10' },
  { wallet: W1, currency: 'btc', units: 1n, cost: '0.01' },
  { wallet: W1, currency: 'btc', units: 2_500_000_000n, cost: '1500.5' },
  { wallet: W2, currency: 'btc', units: 7n, cost: null },
  { wallet: W2, currency: 'btc', units: 3n, cost: '1.00' },
  { wallet: W3, currency: 'usd', units: 12_345n, cost: '123.45' },
];

const roots: string[] = [];
afterAll(async () => {
  for (const r of roots) await rm(r, { recursive: true, force: true });
});
const missing = readersMissing('xlsx');

async function write(maxRowsPerSheet?: number): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'payexport-subtotals-'));
  roots.push(root);
  const folder = await openReportFolder(fixtureOptions(root, maxRowsPerSheet === undefined ? {} : { maxRowsPerSheet }));
  const table = await folder.table(SPEC);
  await table.writeAll(ROWS);
  expect(await table.close()).toEqual({ rows: ROWS.length });
  const { dir } = await folder.publish({ parameters: {}, controlTotals: {}, checks: [] });
  return dir;
}

const values = (row: readonly OpenpyxlCell[] | undefined): unknown[] => (row ?? []).map((c) => c.v);

describe.skipIf(missing !== null)(`subtotal rows in a table sheet${missing === null ? '' : ` (skipped: ${missing})`}`, () => {
  it('writes a subtotal after each group and a total per currency, as formulas, in the sheet only', async () => {
    const dir = await write();
    const rows = sheetNamed(readXlsxWithOpenpyxl(join(dir, 'report.xlsx'), { cells: true }), 'Holdings').rows ?? [];
    // header, 3 lots, subtotal, 2 lots, subtotal, 1 lot, subtotal, 2 totals
    expect(rows.length).toBe(12);
    expect(values(rows[4])).toEqual([W1, '3 rows', 'btc', 'subtotal', '=SUBTOTAL(9,E2:E4)', '=SUBTOTAL(9,F2:F4)', '=SUBTOTAL(9,G2:G4)']);
    // a group with an unknown cost: its cost sum is empty, never a zero
    expect(values(rows[7]).slice(3, 7)).toEqual(['subtotal', '=SUBTOTAL(9,E6:E7)', '=SUBTOTAL(9,F6:F7)', null]);
    expect(values(rows[10]).slice(1, 5)).toEqual(['2 wallets', 'btc', 'total', '=SUMIFS(E$2:E$10,C$2:C$10,"btc",D$2:D$10,"subtotal")']);
    expect(values(rows[11]).slice(2, 4)).toEqual(['usd', 'total']);
    const csv = await readCsv(join(dir, 'holdings.csv'));
    expect(csv.rows.length).toBe(ROWS.length);
    expect((await verify(dir)).ok).toBe(true);
  });

  it('caches the exact sums: base units, display units, decimals of different scales', async () => {
    const dir = await write();
    const python = pythonForXlsx() as string;
    const cached = JSON.parse(
      execFileSync(python, ['-c', `import openpyxl, json, sys, warnings\n${QUIET_OPENPYXL}\nws = openpyxl.load_workbook(sys.argv[1], data_only=True)['Holdings']\nprint(json.dumps([[c.value for c in r] for r in ws.iter_rows()]))`, join(dir, 'report.xlsx')], { encoding: 'utf8' }),
    ) as unknown[][];
    expect(cached[4]?.slice(4, 7)).toEqual([102_500_000_001, 1.02500000001, 61500.61]);
    expect(cached[7]?.slice(4, 7)).toEqual([10, 1e-10, null]);
    expect(cached[10]?.slice(4, 7)).toEqual([102_500_000_011, 1.02500000011, null]);
    expect(cached[11]?.slice(4, 7)).toEqual([12_345, 123.45, 123.45]);
  });

  it('writes values, not formulas, for a group continued on the next sheet', async () => {
    const dir = await write(4);
    const sheets = readXlsxWithOpenpyxl(join(dir, 'report.xlsx'), { cells: true });
    const second = sheetNamed(sheets, 'Holdings (2)').rows ?? [];
    // Holdings: header + 3 lots; Holdings (2): W1's subtotal (its lots on the sheet before) as values
    expect(values(second[1]).slice(3, 7)).toEqual(['subtotal', 102_500_000_001, 1.02500000001, 61500.61]);
    expect((await verify(dir)).ok).toBe(true);
  });
});
