/**
 * The workbook as openpyxl (software that did not write it) reads it: every sheet prints landscape
 * fitted to its pages across, its text at 8 pt or more on A4 and Letter, the Overview one page across
 * with its title repeated; table sheets freeze
 * their header and first column; every display amount is a numeric cell a spreadsheet can sum; a
 * wallet_name sits beside every wallet_id; the Overview's first lines say whether the books tie and
 * whether the period is closed.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tableColumns } from '../../../src/model/column-spec.js';
import { ALL_TABLES, PAYMENTS_TABLE } from '../../../src/sinks/tables/index.js';
import { writeSmallReport } from '../../support/sinks/write-report.js';
import { readersMissing, readXlsxWithOpenpyxl, type OpenpyxlSheet, sheetNamed } from '../../support/readers/readers.js';
import { BODY_PT, printScale } from '../../support/readers/print-scale.js';

const missing = readersMissing('xlsx');

describe.skipIf(missing !== null)(`report.xlsx read by openpyxl${missing === null ? '' : ` (skipped: ${missing})`}`, () => {
  let root = '';
  let sheets: OpenpyxlSheet[] = [];

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'payexport-openpyxl-'));
    const { dir } = await writeSmallReport(join(root, 'out'));
    sheets = readXlsxWithOpenpyxl(join(dir, 'report.xlsx'), { cells: true });
  });
  afterAll(async () => {
    if (root !== '') await rm(root, { recursive: true, force: true });
  });

  const sheet = (name: string): OpenpyxlSheet => sheetNamed(sheets, name);

  it('prints every sheet landscape, fitted to its pages across and as many down as needed, never under 8 pt on A4 or Letter', () => {
    expect(sheets.length).toBeGreaterThan(8);
    for (const s of sheets) {
      expect({ name: s.name, fit_to_page: s.fit_to_page, fit_to_height: s.fit_to_height, orientation: s.orientation }).toEqual({ name: s.name, fit_to_page: true, fit_to_height: 0, orientation: 'landscape' });
      for (const paper of ['A4', 'Letter'] as const) expect({ name: s.name, paper, pt: BODY_PT * printScale(s, paper) >= 8 }).toEqual({ name: s.name, paper, pt: true });
    }
    // the cover: its title and verdict on every page; one page across unless amounts as long as this
    // fixture's 21,000,000.00150000000 BTC widen its columns (the demo's is one page: crypto-sheets.test.ts)
    expect(sheet('Overview')).toMatchObject({ print_title_rows: '$1:$2' });
    expect(sheet('Overview').fit_to_width).toBeLessThanOrEqual(2);
  });

  it('freezes the header row and the first column of every table sheet', () => {
    for (const table of ALL_TABLES) expect({ sheet: table.sheet, freeze: sheet(table.sheet).freeze_panes }).toEqual({ sheet: table.sheet, freeze: 'B2' });
  });

  it('writes every display amount as a numeric cell, with thousands separators', () => {
    let checked = 0;
    for (const table of ALL_TABLES) {
      const rows = sheet(table.sheet).rows ?? [];
      const header = (rows[0] ?? []).map((c) => String(c.v));
      tableColumns(table).forEach((col) => {
        if (col.type !== 'display') return;
        const at = header.indexOf(col.name);
        expect(at, `${table.sheet}.${col.name}`).toBeGreaterThanOrEqual(0);
        for (const row of rows.slice(1)) {
          const cell = row[at];
          if (cell === undefined || cell.v === null) continue;
          expect({ where: `${table.sheet}.${col.name}`, t: cell.t }).toEqual({ where: `${table.sheet}.${col.name}`, t: 'n' });
          expect(cell.fmt, `${table.sheet}.${col.name}`).toMatch(/^#,##0/);
          checked += 1;
        }
      });
    }
    expect(checked).toBeGreaterThan(20);
  });

  it('puts wallet_name beside every wallet_id, filled in', () => {
    for (const table of ALL_TABLES) {
      const rows = sheet(table.sheet).rows ?? [];
      const header = (rows[0] ?? []).map((c) => String(c.v));
      if (!header.includes('wallet_id')) continue;
      const name = header.indexOf('wallet_name');
      expect(name, table.sheet).toBeGreaterThanOrEqual(0);
      for (const row of rows.slice(1)) {
        const id = row[header.indexOf('wallet_id')]?.v;
        if (id === '7a1f0000-0000-4000-8000-00000000b7c1') expect(row[name]?.v, table.sheet).toBe('Treasury BTC');
      }
    }
  });

  it('reads Payments like a person: date, wallet name, direction, status, amounts (the printed columns), then fees, memo, ids', () => {
    const header = (sheet(PAYMENTS_TABLE.sheet).rows?.[0] ?? []).map((c) => String(c.v));
    expect(header.slice(0, 10)).toEqual(['created_at', 'wallet_name', 'direction', 'status', 'display_currency', 'principal', 'total', 'network_fee', 'processing_fee', 'description']);
    // the print area ends at the last printed column: one page across
    expect([sheet(PAYMENTS_TABLE.sheet).print_area].flat().join()).toMatch(/^\$?A:\$?G$/);
    expect(sheet(PAYMENTS_TABLE.sheet).fit_to_width).toBe(1);
    expect(header.indexOf('payment_id')).toBeGreaterThan(header.indexOf('description'));
  });

  it('answers on the Overview whether the books tie and whether the period is closed, amounts as numbers', () => {
    const rows = sheet('Overview').rows ?? [];
    expect(String(rows[1]?.[0]?.v)).toMatch(/^(Ties out|Does not tie) — \d+ errors?, \d+ warnings?, \d+ info$/);
    expect(String(rows[2]?.[0]?.v)).toMatch(/^(Closed|Not closed)/);
    const roll = rows.findIndex((r) => r[0]?.v === 'Roll-forward by currency (display units)');
    expect(roll).toBeGreaterThan(0);
    expect((rows[roll + 1] ?? []).slice(0, 7).map((c) => c.v)).toEqual(['currency', 'wallets', 'opening', 'in', 'out (incl. fees)', 'of which fees the company paid', 'closing']);
    const first = rows[roll + 2] ?? [];
    for (const c of first.slice(2, 7)) expect(c.t).toBe('n');
    // no amount on the Overview is text
    const texts = rows.flat().filter((c) => c.t === 's' && /^-?\d+\.\d+$/.test(String(c.v)));
    expect(texts).toEqual([]);
  });
});
