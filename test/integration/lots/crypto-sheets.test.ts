/**
 * The crypto sheets and the Overview as a controller meets them, on the demo's October (the
 * simulator the demo runs, with its journal and lots sections), checked by software that did not
 * write them:
 *
 * - openpyxl reads the Crypto assets sheet: a title with the entity, the period, the as-of instant,
 *   the books currency and each closing price with its source and time; units in BTC; per-asset
 *   figures and totals equal to crypto-assets.csv (Python's csv); the closing line a formula; the
 *   wallet rows equal to the Lots sheet's subtotals and to lots.csv summed per wallet;
 * - LibreOffice recalculates both sheets from a copy without cached results: every formula comes
 *   back to the value written with it, so the sheet recomputes to what the CSV files hold;
 * - LibreOffice prints the workbook to PDF with its own page setup, and poppler reads it: the
 *   title, the units in BTC and the totals are on paper, and no word of any page is smaller than
 *   8 pt text (measured against an 8 pt reference printed the same way) — on A4 as written, and on
 *   Letter (the same workbook set to Letter).
 */
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type SimHandle } from '../../../src/sim/index.js';
import { formatBase, groupThousands } from '../../../src/money/format.js';
import { demoJournal, demoLots, monthEnd, pythonRows, type Rows } from '../../support/lots/demo-month-ends.js';
import { convertAllToPdf, convertWithLibreOffice, eightPointHeight, eightPointReference, pdfPages, pdfText, pdfToolsMissing, sideBySide, stripResults, type RecalculatedCell } from '../../support/readers/libreoffice.js';
import { pythonForXlsx, QUIET_OPENPYXL, readersMissing, readXlsxWithOpenpyxl, sheetNamed, type OpenpyxlCell } from '../../support/readers/readers.js';
import { scaled } from '../../support/journal/ledger-tools.js';
import { runAgainstSimulator, type PipelineRun } from '../../support/pipeline/run-pipeline.js';

const TZ = 'America/New_York';
const skip = readersMissing('both') ?? pdfToolsMissing();
const cents = (s: string | undefined): bigint => scaled(s === undefined || s === '' ? '0' : s, 2);
const money = (v: bigint): string => groupThousands(formatBase(v, 2));
const btcUnits = (a: Record<string, string>): string => formatBase(BigInt(a['units_base']!), 11);
const asCents = (v: unknown): bigint => scaled(Number(v).toFixed(2), 2);
const text = (c: OpenpyxlCell | undefined): string => String(c?.v ?? '');

describe.skipIf(skip !== null)(`the crypto sheets read, recalculated and printed by LibreOffice${skip ? ` (skipped: ${skip})` : ''}`, () => {
  let sim: SimHandle;
  let run: PipelineRun;
  let root: string;
  let assets: Rows;
  let lots: Rows;
  /** the Crypto assets sheet: formulas as their text; and with each formula's cached result */
  let sheet: OpenpyxlCell[][];
  let cached: OpenpyxlCell[][];
  let lotsSheet: OpenpyxlCell[][];

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'payexport-crypto-sheets-'));
    sim = await startSimulator({ seed: 7, scale: 5_000, wallets: 12, profile: 'business' });
    run = await runAgainstSimulator({ sim, spec: monthEnd('2026-10', false), tz: TZ, flags: { db: false, formats: ['csv', 'xlsx'], journal: demoJournal, lots: demoLots() } });
    assets = pythonRows(join(run.dir, 'crypto-assets.csv'));
    lots = pythonRows(join(run.dir, 'lots.csv'));
    const sheets = readXlsxWithOpenpyxl(join(run.dir, 'report.xlsx'), { cells: true, sheets: ['Crypto assets', 'Lots'] });
    sheet = sheetNamed(sheets, 'Crypto assets').rows ?? [];
    cached = sheetNamed(readXlsxWithOpenpyxl(join(run.dir, 'report.xlsx'), { cells: true, values: true, sheets: ['Crypto assets'] }), 'Crypto assets').rows ?? [];
    lotsSheet = sheetNamed(sheets, 'Lots').rows ?? [];
  }, 300_000);
  afterAll(async () => {
    await run?.cleanup();
    await sim?.close();
    if (root !== undefined) rmSync(root, { recursive: true, force: true });
  });

  /** the row whose column A starts with `label`: its values (formulas' cached results), or its formulas */
  const row = (label: string, formulas = false): OpenpyxlCell[] => {
    const at = sheet.findIndex((r) => text(r[0]).startsWith(label));
    if (at < 0) throw new Error(`no row "${label}" on Crypto assets`);
    return (formulas ? sheet : cached)[at] as OpenpyxlCell[];
  };

  it('opens with the entity, the period, the as-of instant, the books currency and where each fair value comes from', () => {
    const top = sheet.slice(0, 8).map((r) => text(r[0])).join('\n');
    expect(top).toContain('Crypto assets — Demo Company, Inc.');
    expect(top).toContain('1 October 2026 to 31 October 2026');
    expect(top).toContain('As of the end of 31 October 2026 in America/New_York: 2026-11-01 04:00:00 UTC, excluded.');
    expect(top).toContain('Books currency: USD');
    expect(top).toMatch(/Fair value of BTC: [\d,]+\.\d+ USD per BTC, .* price file demo-prices-btc-usd\.csv, price of 2026-\d\d-\d\d \d\d:\d\d:\d\d UTC\./);
    expect(top).toMatch(/Fair value of USDT: 1\.00 USD per USDT, .* price file demo-prices-usdt-usd\.csv/);
  });

  it('shows per asset, in words a controller uses, the units (BTC in BTC), cost basis, fair value and unrealized gain, and totals in USD equal to crypto-assets.csv', () => {
    const header = sheet.find((r) => text(r[1]) === 'BTC');
    expect(header?.slice(1, 4).map(text)).toEqual(['BTC', 'USDT', 'total (USD)']);
    const btc = assets.find((a) => a['currency'] === 'btc')!;
    expect(Number(row('units held')[1]?.v).toFixed(11)).toBe(btcUnits(btc));
    for (const [label, column] of [['cost basis', 'cost_basis'], ['fair value', 'closing_fair_value'], ['unrealized gain', 'unrealized_gain']] as const) {
      const cells = row(label);
      assets.forEach((a, k) => expect({ label, k, v: asCents(cells[k + 1]?.v) }).toEqual({ label, k, v: cents(a[column]) }));
      expect({ label, total: asCents(cells[assets.length + 1]?.v) }).toEqual({ label, total: assets.reduce((s, a) => s + cents(a[column]), 0n) });
    }
    expect(row('unrealized gain', true)[1]?.t).toBe('f');
  });

  it('lays the roll-forward out top to bottom with its arithmetic as formulas, the units beside it, realized gains apart', () => {
    const lines = ['Opening fair value', 'Add: additions', 'Less: dispositions', 'Add (less): transfers', 'Add (less): remeasurement', 'Closing fair value'];
    const columns = ['opening_fair_value', 'additions', 'dispositions', 'transfers_net', 'remeasurement_gain', 'closing_fair_value'];
    const at = lines.map((l) => sheet.indexOf(row(l, true)));
    expect([...at].sort((a, b) => a - b)).toEqual(at);
    lines.forEach((label, i) => assets.forEach((a, k) => expect({ label, k, v: asCents(row(label)[k + 1]?.v) }).toEqual({ label, k, v: cents(a[columns[i] as string]) })));
    const closing = row('Closing fair value', true);
    const [o, add, disp, tr, rem] = at.map((i) => i + 1);
    expect(closing[1]?.t).toBe('f');
    expect(closing[1]?.v).toBe(`=B${o}+B${add}-B${disp}+B${tr}+B${rem}`);
    // units beside it: the units columns' closing line is the units held
    const unitsHeader = sheet[at[0]! - 1]!.map(text);
    const btcUnits = unitsHeader.indexOf('BTC units');
    expect(btcUnits).toBeGreaterThan(assets.length);
    expect(closing[btcUnits]?.t).toBe('f');
    expect(text(sheet.find((r) => text(r[0]).startsWith('Realized gain = proceeds − cost basis'))?.[0])).toContain('not a line of the roll-forward');
    assets.forEach((a, k) => {
      expect(asCents(row('realized gain of the period')[k + 1]?.v)).toBe(cents(a['realized_gain']));
      expect(asCents(row('cumulative, first event')[k + 1]?.v)).toBe(cents(a['cumulative_realized_gain']));
    });
  });

  it('gives each wallet its method and holdings on a row of its own, equal to the Lots subtotal and to lots.csv', () => {
    const subtotals = lotsSheet.filter((r) => r[6]?.v === 'subtotal');
    expect(subtotals.length).toBeGreaterThan(5);
    const header = (lotsSheet[0] ?? []).map(text);
    const col = (name: string): number => header.indexOf(name);
    const start = sheet.findIndex((r) => text(r[0]) === 'wallet');
    for (const sub of subtotals) {
      const walletId = text(sub[col('wallet_id')]);
      const mine = lots.filter((l) => l['wallet_id'] === walletId);
      const cost = mine.reduce((s, l) => s + cents(l['cost_basis']), 0n);
      const fair = mine.reduce((s, l) => s + cents(l['fair_value']), 0n);
      // an own custody wallet (custody:<id>) is named as such on the note
      const name = text(sub[col('wallet_name')]) + (walletId.startsWith('custody:') ? ' (own custody)' : '');
      const walletRow = sheet.slice(start + 1).find((r) => text(r[0]) === name);
      expect(walletRow, walletId).toBeDefined();
      expect(text(walletRow?.[2])).toMatch(/^(fifo|lifo|hifo|specific|average)/);
      expect({ walletId, lots: walletRow?.[3]?.v, cost: asCents(walletRow?.[5]?.v), fair: asCents(walletRow?.[6]?.v) }).toEqual({ walletId, lots: mine.length, cost, fair });
      expect(text(sub[col('units_base')])).toMatch(/^=SUBTOTAL\(9,H\d+:H\d+\)$/);
    }
    // one total per currency at the end of Lots, summing the subtotals
    expect(lotsSheet.filter((r) => r[6]?.v === 'total').map((r) => text(r[3]))).toEqual(['total BTC: 8 wallets', 'total USDT: 1 wallet']); // seven on the service, and the cold storage (own custody)
    // the stablecoin's cents of unrealized gain are explained where they show
    expect(sheet.some((r) => /^USDT: every lot held cost 1\.00 USD per USDT, the closing price, so its unrealized gain of -0\.04 USD is rounding alone/.test(text(r[0])))).toBe(true);
  });

  it('recomputes: LibreOffice recalculates a copy without cached results to the values written with the formulas', () => {
    const python = pythonForXlsx();
    expect(python).not.toBeNull();
    const stripped = join(root, 'stripped.xlsx');
    stripResults(join(run.dir, 'report.xlsx'), stripped, ['Crypto assets', 'Lots']);
    const recalculated = convertWithLibreOffice(stripped, 'xlsx', join(root, 'recalculated'), join(root, 'lo-recalc'), true);
    const sheets = sideBySide(join(run.dir, 'report.xlsx'), recalculated, ['Crypto assets', 'Lots']);
    let formulas = 0;
    for (const [name, rows] of Object.entries(sheets)) {
      rows.forEach((cells: RecalculatedCell[], i) =>
        cells.forEach((c, j) => {
          if (c.f === null) return;
          formulas += 1;
          expect(typeof c.r, `${name} row ${i + 1} col ${j + 1} ${c.f}`).toBe('number');
          // the written result is exact; LibreOffice adds in binary floating point: equal to far below a cent or a msat
          expect(Math.abs((c.r as number) - (c.v as number)), `${name} row ${i + 1} col ${j + 1} ${c.f}: ${c.r} vs ${c.v}`).toBeLessThan(1e-6);
        }),
      );
    }
    expect(formulas).toBeGreaterThan(60);
  }, 600_000);

  it('prints every sheet at 8 pt or more on A4 and on Letter, with the title, the units in BTC and the totals on paper', () => {
    const book = join(root, 'report.xlsx');
    copyFileSync(join(run.dir, 'report.xlsx'), book);
    const letterBook = join(root, 'report-letter.xlsx');
    execFileSync(pythonForXlsx()!, ['-c', `import openpyxl, sys, warnings\n${QUIET_OPENPYXL}\nwb = openpyxl.load_workbook(sys.argv[1])\nfor ws in wb.worksheets:\n    ws.page_setup.paperSize = ws.PAPERSIZE_LETTER\nwb.save(sys.argv[2])`, book, letterBook]);
    // the 8 pt reference, the book on A4 as written and on Letter: printed in one LibreOffice start
    const [reference, pdf, letter] = convertAllToPdf([eightPointReference(root), book, letterBook], join(root, 'pdf'), join(root, 'lo-pdf')) as [string, string, string];
    const eight = eightPointHeight(reference);
    // the cover and the note each print one page across
    const sheets = readXlsxWithOpenpyxl(book);
    for (const name of ['Overview', 'Crypto assets']) expect({ name, across: sheetNamed(sheets, name).fit_to_width }).toEqual({ name, across: 1 });
    for (const [paper, file] of [['A4', pdf], ['Letter', letter]] as const) {
      const pages = pdfPages(file);
      expect(pages.length).toBeGreaterThan(20);
      const small = pages.flatMap((words, i) => words.filter((w) => w.height < eight * 0.99).map((w) => `page ${i + 1}: "${w.text}" ${((8 * w.height) / eight).toFixed(1)} pt`));
      expect(small.slice(0, 10), `${paper}: words under 8 pt`).toEqual([]);
    }
    const words = pdfText(pdf);
    const btc = assets.find((a) => a['currency'] === 'btc')!;
    for (const expected of ['Crypto assets — Demo Company, Inc.', 'As of the end of 31 October 2026', 'BTC units', 'total (USD)', 'Closing fair value', btcUnits(btc), money(assets.reduce((s, a) => s + cents(a['closing_fair_value']), 0n)), money(assets.reduce((s, a) => s + cents(a['cost_basis']), 0n))]) {
      expect(words, expected).toContain(expected);
    }
    // the Overview's crypto block: the units in BTC beside the figures, and whether the lots tie
    expect(words).toMatch(/Crypto assets \(the lots; details: sheets Crypto assets and Lots\), USD/);
    // the lots on the service's wallets: those in own custody are shown apart (location own_custody)
    const lotsOf = lots.filter((l) => l['currency'] === 'btc' && l['location'] === 'service').length.toLocaleString('en-US');
    expect(words).toMatch(new RegExp(`BTC\\s+${lotsOf}\\s+${btcUnits(btc).replace(".", "\\.")}\\s+${money(cents(btc['cost_basis'])).replaceAll('.', '\\.')}\\s+${money(cents(btc['closing_fair_value'])).replaceAll('.', '\\.')}`));
  }, 900_000);
});
