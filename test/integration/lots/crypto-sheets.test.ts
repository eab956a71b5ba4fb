/**
 * The crypto sheets and the Overview as a controller meets them, on the demo's October (the
 * simulator the demo runs, with its journal and lots sections), checked by software that did not
 * write them:
 *
 * - openpyxl reads the Crypto assets sheet (the ASC 350-60-50 note): a title with the entity, the
 *   period, the as-of instant, the books currency and each closing price with its source and time,
 *   a stale one flagged (and a warning in exceptions.csv); the holdings of every location with each
 *   asset's locations beside it, equal line for line to crypto-assets.csv (Python's csv) and to the
 *   Lots sheet's totals; the roll-forward with remeasurement gains and losses apart, the closing
 *   line the sum of its column; what the disposals realized against cost, gains and losses apart;
 *   the income-statement line; the wallet rows equal to the Lots sheet's subtotals and to lots.csv
 *   summed per wallet, the change of method with its date; the restrictions;
 * - LibreOffice recalculates both sheets from a copy without cached results: every formula comes
 *   back to the value written with it, so the sheet recomputes to what the CSV files hold;
 * - LibreOffice prints the workbook to PDF with its own page setup, and poppler reads it: the
 *   title, the units in BTC and the totals are on paper, and no word of any page is smaller than
 *   8 pt text (measured against an 8 pt reference printed the same way) — on A4 as written, every
 *   page, and on Letter (the same file set to Letter, each sheet's first 100 rows: one page across
 *   scales by the columns, so its first pages print at the size the rest would).
 */
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type SimHandle } from '../../../src/sim/index.js';
import { formatBase, groupThousands } from '../../../src/money/format.js';
import { demoJournal, demoLots, monthEnd, pythonRows, type Rows } from '../../support/lots/demo-month-ends.js';
import { convertAllToPdf, convertWithLibreOffice, eightPointHeight, eightPointReference, paperCopy, pdfPages, pdfText, pdfToolsMissing, sideBySide, stripResults, type RecalculatedCell } from '../../support/readers/libreoffice.js';
import { pythonForXlsx, readersMissing, readXlsxWithOpenpyxl, sheetNamed, type OpenpyxlCell } from '../../support/readers/readers.js';
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
  let lotsValues: OpenpyxlCell[][];
  let exceptions: Rows;

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'payexport-crypto-sheets-'));
    sim = await startSimulator({ seed: 7, scale: 5_000, wallets: 12, profile: 'business' });
    run = await runAgainstSimulator({ sim, spec: monthEnd('2026-10', false), tz: TZ, flags: { db: false, formats: ['csv', 'xlsx'], journal: demoJournal, lots: demoLots() } });
    assets = pythonRows(join(run.dir, 'crypto-assets.csv'));
    lots = pythonRows(join(run.dir, 'lots.csv'));
    const sheets = readXlsxWithOpenpyxl(join(run.dir, 'report.xlsx'), { cells: true, sheets: ['Crypto assets', 'Lots'] });
    sheet = sheetNamed(sheets, 'Crypto assets').rows ?? [];
    const values = readXlsxWithOpenpyxl(join(run.dir, 'report.xlsx'), { cells: true, values: true, sheets: ['Crypto assets', 'Lots'] });
    cached = sheetNamed(values, 'Crypto assets').rows ?? [];
    lotsSheet = sheetNamed(sheets, 'Lots').rows ?? [];
    lotsValues = sheetNamed(values, 'Lots').rows ?? [];
    exceptions = pythonRows(join(run.dir, 'exceptions.csv'));
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

  /** the rows of crypto-assets.csv for one location */
  const at = (location: string): Rows => assets.filter((a) => a['location'] === location);
  /** the Lots sheet's row for the total of a currency (its ticker), with the cached results of its SUMIFS */
  const lotsTotal = (ticker: string): OpenpyxlCell[] => lotsValues.find((r) => text(r[lotsCol('lot_id')]).startsWith(`total ${ticker}:`)) ?? [];
  const lotsCol = (name: string): number => (lotsSheet[0] ?? []).findIndex((c) => c.v === name);

  it('opens with the entity, the period, the as-of instant, the books currency and where each fair value comes from, a stale price flagged', () => {
    const top = sheet.slice(0, 8).map((r) => text(r[0])).join('\n');
    expect(top).toContain('Crypto assets — Demo Company, Inc.');
    expect(top).toContain('1 October 2026 to 31 October 2026');
    expect(top).toContain('As of the end of 31 October 2026 in America/New_York: 2026-11-01 04:00:00 UTC, excluded.');
    expect(top).toContain('Books currency: USD');
    expect(top).toContain('negative amounts in parentheses');
    expect(top).toMatch(/Fair value of BTC: [\d,]+\.\d+ USD per BTC, .* price file demo-prices-btc-usd\.csv, price of 2026-\d\d-\d\d \d\d:\d\d:\d\d UTC\./);
    expect(top).toMatch(/Fair value of USDT: 1\.00 USD per USDT, .* price file demo-prices-usdt-usd\.csv, price of 2026-08-01 00:00:00 UTC — older than the age allowed at the period's end: it may be stale/);
  });

  it('warns that the USDT price may be stale, naming the asset, the price\'s time and its source', () => {
    const stale = exceptions.filter((f) => f['check_id'] === 'lots.price_stale');
    expect(stale.map((f) => [f['severity'], f['currency'], f['actual']])).toEqual([['warning', assets.find((a) => a['currency'] !== 'btc')?.['currency'], '2026-08-01T00:00:00.000000Z']]);
    expect(stale[0]?.['message']).toMatch(/USDT .* from price file demo-prices-usdt-usd\.csv, a price of 2026-08-01 00:00:00 UTC — 92 days before the period's end, older than 1 day/);
  });

  it("holds every location, each asset's locations beside it: the note, crypto-assets.csv and the Lots sheet's totals agree line for line", () => {
    expect(assets.map((a) => [a['currency'] === 'btc' ? 'BTC' : 'USDT', a['location']])).toEqual([['BTC', 'all'], ['BTC', 'service'], ['BTC', 'own_custody'], ['USDT', 'all'], ['USDT', 'service']]);
    const holdings = (label: string): OpenpyxlCell[] => row(label);
    const lines: Array<[string, Record<string, string>]> = [['BTC — Bitcoin, all locations', at('all')[0]!], ['service wallets', at('service')[0]!], ['own custody', at('own_custody')[0]!], ['USDT — USDT', at('all')[1]!]];
    for (const [label, a] of lines) {
      const cells = holdings(label);
      const scale = a['currency'] === 'btc' ? 11 : 6;
      expect({ label, units: scaled(Number(cells[1]?.v).toFixed(scale), scale), lots: cells[2]?.v, cost: asCents(cells[3]?.v), fair: asCents(cells[4]?.v), unrealized: asCents(cells[5]?.v) }).toEqual({ label, units: BigInt(a['units_base']!), lots: Number(a['lots']), cost: cents(a['cost_basis']), fair: cents(a['closing_fair_value']), unrealized: cents(a['unrealized_gain']) });
    }
    // the Lots sheet's total per currency is every location's: the same units, cost and fair value
    for (const [ticker, a] of [['BTC', at('all')[0]!], ['USDT', at('all')[1]!]] as const) {
      const total = lotsTotal(ticker);
      expect({ ticker, units: BigInt(String(total[lotsCol('units_base')]?.v)), cost: asCents(total[lotsCol('cost_basis')]?.v), fair: asCents(total[lotsCol('fair_value')]?.v) }).toEqual({ ticker, units: BigInt(a['units_base']!), cost: cents(a['cost_basis']), fair: cents(a['closing_fair_value']) });
    }
    // the cold storage is inside the holdings: 14,000,000 msats... at its fair value
    expect(BigInt(at('own_custody')[0]!['units_base']!)).toBe(lots.filter((l) => l['location'] === 'own_custody').reduce((s, l) => s + BigInt(l['units_base']!), 0n));
    expect(row('BTC — Bitcoin', true)[5]?.t).toBe('f');
  });

  it('rolls fair value forward per asset and location with remeasurement gains and losses apart, the closing line a sum of its column, the units beside', () => {
    const lines = ['Opening fair value', 'Additions', 'Dispositions, at proceeds', 'Transfers between locations', 'Remeasurement gains', 'Remeasurement losses', 'Closing fair value'];
    const columns: Array<[string, (a: Record<string, string>) => bigint]> = [
      ['opening_fair_value', (a) => cents(a['opening_fair_value'])],
      ['additions', (a) => cents(a['additions'])],
      ['dispositions', (a) => -cents(a['dispositions'])],
      ['transfers_net', (a) => cents(a['transfers_net'])],
      ['remeasurement_gains', (a) => cents(a['remeasurement_gains'])],
      ['remeasurement_losses', (a) => cents(a['remeasurement_losses'])],
      ['closing_fair_value', (a) => cents(a['closing_fair_value'])],
    ];
    const where = lines.map((l) => sheet.indexOf(row(l, true)));
    expect([...where].sort((a, b) => a - b)).toEqual(where);
    // columns: BTC, BTC service wallets, BTC own custody, USDT, total
    const order = [at('all')[0]!, at('service')[0]!, at('own_custody')[0]!, at('all')[1]!];
    lines.forEach((label, i) => order.forEach((a, k) => expect({ label, k, v: asCents(row(label)[k + 1]?.v) }).toEqual({ label, k, v: columns[i]![1](a) })));
    const [first] = where.map((i) => i + 1);
    expect(row('Closing fair value', true)[1]?.v).toBe(`=SUM(B${first}:B${first! + 5})`);
    // BTC fell in October: its remeasurement, every location of it, is on the losses line
    expect(asCents(row('Remeasurement gains')[1]?.v)).toBe(0n);
    expect(asCents(row('Remeasurement losses')[1]?.v)).toBe(cents(at('all')[0]!['remeasurement_losses']));
    expect(cents(at('all')[0]!['remeasurement_losses'])).toBeLessThan(0n);
    const units = sheet.find((r) => text(r[1]) === 'BTC units');
    expect(units?.slice(1, 5).map(text)).toEqual(['BTC units', 'BTC, service wallets units', 'BTC, own custody units', 'USDT units']);
  });

  it("shows what the disposals realized against cost: proceeds, the cost basis disposed of, gains and losses apart", () => {
    const btc = at('all')[0]!;
    expect(asCents(row('Proceeds of the dispositions')[1]?.v)).toBe(cents(btc['proceeds']));
    expect(asCents(row('Cost basis of the crypto assets disposed of')[1]?.v)).toBe(-cents(btc['disposed_cost_basis']));
    expect(asCents(row('of which realized gains')[1]?.v)).toBe(cents(btc['realized_gains']));
    expect(asCents(row('of which realized losses')[1]?.v)).toBe(cents(btc['realized_losses']));
    expect(asCents(row('Realized gain (loss), net')[1]?.v)).toBe(cents(btc['realized_gain']));
    expect(cents(btc['realized_gains'])).toBeGreaterThan(0n);
    expect(cents(btc['realized_losses'])).toBeLessThan(0n);
    expect(asCents(row('Cumulative realized gain')[1]?.v)).toBe(cents(btc['cumulative_realized_gain']));
    expect(text(sheet.find((r) => text(r[0]).startsWith('Realized gain = proceeds − cost basis'))?.[0])).toContain('not a line of the fair-value roll-forward');
  });

  it('names the income-statement line, the method of each wallet with its holdings (the Lots subtotals), the change of method with its date, and the restrictions', () => {
    const words = sheet.map((r) => text(r[0])).join('\n');
    expect(words).toContain('are presented in: Gain (loss) on crypto assets, net — the journal\'s account Income:Crypto:FairValue.');
    expect(words).toContain('Merchant payouts: fifo → hifo from 15 October 2026; disposals before that date keep the method they were made under.');
    expect(words).toContain('None: no crypto asset held is subject to a contractual sale restriction');
    const subtotals = lotsSheet.filter((r) => r[lotsCol('origin')]?.v === 'subtotal');
    expect(subtotals.length).toBeGreaterThan(5);
    const start = sheet.findIndex((r) => text(r[0]) === 'wallet — asset');
    for (const sub of subtotals) {
      const walletId = text(sub[lotsCol('wallet_id')]);
      const mine = lots.filter((l) => l['wallet_id'] === walletId);
      const label = `${text(sub[lotsCol('wallet_name')])}${walletId.startsWith('custody:') ? ' (own custody)' : ''} — ${mine[0]?.['currency'] === 'btc' ? 'BTC' : 'USDT'}`;
      const walletRow = sheet.slice(start + 1).find((r) => text(r[0]) === label);
      expect(walletRow, label).toBeDefined();
      expect(text(walletRow?.[1])).toMatch(/^(fifo|lifo|hifo|specific|average)/);
      expect({ walletId, lots: walletRow?.[2]?.v, cost: asCents(walletRow?.[4]?.v), fair: asCents(walletRow?.[5]?.v) }).toEqual({ walletId, lots: mine.length, cost: mine.reduce((s, l) => s + cents(l['cost_basis']), 0n), fair: mine.reduce((s, l) => s + cents(l['fair_value']), 0n) });
      const units = String.fromCharCode(65 + lotsCol('units_base'));
      expect(text(sub[lotsCol('units_base')])).toMatch(new RegExp(`^=SUBTOTAL\\(9,${units}\\d+:${units}\\d+\\)$`));
    }
    expect(sheet.slice(start + 1).find((r) => text(r[0]).startsWith('Merchant payouts'))?.[1]?.v).toBe('hifo, since 15 October 2026');
    // one total per currency at the end of Lots, summing the subtotals
    expect(lotsSheet.filter((r) => r[lotsCol('origin')]?.v === 'total').map((r) => text(r[lotsCol('lot_id')]))).toEqual(['total BTC: 8 wallets', 'total USDT: 1 wallet']); // seven on the service, and the cold storage (own custody)
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

  it("splits the Overview's fees into the company's and its payers', the company's in USD equal to the journal's fee expense accounts", () => {
    const overview = sheetNamed(readXlsxWithOpenpyxl(join(run.dir, 'report.xlsx'), { cells: true, values: true, sheets: ['Overview'] }), 'Overview').rows ?? [];
    const at = overview.findIndex((r) => text(r[0]).startsWith('Fees: paid by the company and by its payers'));
    expect(at).toBeGreaterThan(0);
    const line = (label: string): OpenpyxlCell[] => overview.slice(at).find((r) => text(r[0]) === label) ?? [];
    // fees.csv (Python's csv): a send's fees are the company's, a receive's processing fee its payer's
    const fees = pythonRows(join(run.dir, 'fees.csv')).filter((f) => f['currency'] === 'usd');
    const sum = (direction: string, column: string): bigint => fees.filter((f) => f['direction'] === direction).reduce((t, f) => t + BigInt(f[column]!), 0n);
    const usd = line('USD');
    expect([usd[2], usd[3], usd[4], usd[5]].map((c) => asCents(c?.v))).toEqual([sum('send', 'network_fee_base'), sum('send', 'processing_fee_base'), sum('send', 'network_fee_base') + sum('send', 'processing_fee_base'), sum('receive', 'processing_fee_base')]);
    // journal.csv (Python's csv): the fee accounts' lines, debits − credits, every currency
    const journal = pythonRows(join(run.dir, 'journal.csv'));
    const posted = (component: string): bigint => journal.filter((l) => l['component'] === component).reduce((t, l) => t + cents(l['debit']) - cents(l['credit']), 0n);
    const books = line("company's fees in USD");
    expect([books[2], books[3], books[4]].map((c) => asCents(c?.v))).toEqual([posted('network_fee'), posted('processing_fee'), posted('network_fee') + posted('processing_fee')]);
    expect(posted('network_fee') + posted('processing_fee')).toBeGreaterThan(0n);
    const words = overview.slice(at).map((r) => text(r[0])).join(' ');
    expect(words).toContain(`Expenses:Fees:Network ${money(posted('network_fee'))} + Expenses:Fees:VoltageProcessing ${money(posted('processing_fee'))} = ${money(posted('network_fee') + posted('processing_fee'))} USD`);
    expect(words).toContain("In each currency and wallet the journal's fee lines tie to the company's fees above.");
    // accountants' words on the cover: no flag, no check id
    const cover = overview.flat().map((c) => text(c)).join(' ');
    expect(cover).not.toMatch(/--[a-z]|\b(lots|journal|payment|bill|data|summary|balance|tax)\.(?!csv\b)[a-z_]+\b/);
  });

  it('prints every sheet at 8 pt or more on A4 and on Letter, with the title, the units in BTC and the totals on paper', () => {
    const book = join(root, 'report.xlsx');
    copyFileSync(join(run.dir, 'report.xlsx'), book);
    // Letter: the same workbook, its paper size rewritten and each sheet cut to its first 100 rows — a
    // sheet printed one page across scales by its columns, not by its rows, and the A4 print below is whole
    const letterBook = paperCopy(book, join(root, 'report-letter.xlsx'), 1, 100);
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
    // every page names the entity, the period and its sheet at the top, and its number among all the pages at the foot
    const printed = words.split('\f').filter((page) => page.trim() !== '');
    expect(printed.length).toBe(pdfPages(pdf).length);
    printed.forEach((page, i) => {
      expect(page, `page ${i + 1}`).toMatch(/^\s*Demo Company, Inc\. · month-end 2026-10\s+\S/);
      expect(page, `page ${i + 1}`).toContain(`Page ${i + 1} of ${printed.length}`);
    });
    // every table sheet prints one page across, its rows down: at 8–11 pt a landscape page holds 30 rows or more,
    // so a sheet takes at most one page per 30 of its rows (two or more across would take twice that)
    const pagesOf = (name: string): number => printed.filter((page) => page.trimStart().startsWith(`Demo Company, Inc. · month-end 2026-10`) && page.split('\n')[0]!.trimEnd().endsWith(` ${name}`)).length;
    for (const table of sheets.filter((s) => ['Payments', 'Ledger', 'Journal', 'Lot reliefs', 'Lots', 'Bills', 'Summary check', 'Fees'].includes(s.name))) {
      expect(pagesOf(table.name), `${table.name}: ${table.max_row} rows`).toBeGreaterThan(0);
      expect(pagesOf(table.name), `${table.name}: ${table.max_row} rows`).toBeLessThanOrEqual(Math.ceil(table.max_row / 30));
    }
    // the cover prints on two pages, one across
    expect(printed.filter((page) => /^\s*Demo Company, Inc\. · month-end 2026-10\s+Overview\n/.test(page))).toHaveLength(2);
    // the journal's print view: one page across (date, entry, account, debit, credit, memo), each page beginning with an entry — none split
    const journalPages = printed.filter((page) => /^\s*Demo Company, Inc\. · month-end 2026-10\s+Journal \(print\)\n/.test(page));
    expect(journalPages.length).toBeGreaterThan(10);
    const numbers: string[] = [];
    journalPages.forEach((page, i) => {
      const lines = page.split('\n');
      const header = lines.findIndex((l) => /^\s*date\s+entry\s+account\s+debit\s+credit\s+memo\s*$/.test(l));
      expect(header, `print view page ${i + 1}`).toBeGreaterThan(0);
      const first = lines.slice(header + 1).find((l) => l.trim() !== '');
      expect(first, `print view page ${i + 1}`).toMatch(/^\s*\d{4}-\d\d-\d\d\s+J[A-Z]-\d{4}-\d\d-L?\d{5}\s/);
      numbers.push(...(page.match(/\bJ[A-Z]-\d{4}-\d\d-L?\d{5}\b/g) ?? []));
    });
    const entries = [...new Set(pythonRows(join(run.dir, 'journal.csv')).map((l) => l['entry_no']!))];
    expect(numbers).toEqual(entries);
    const totals = at('all');
    const btc = totals.find((a) => a['currency'] === 'btc')!;
    for (const expected of ['Crypto assets — Demo Company, Inc.', 'As of the end of 31 October 2026', 'BTC units', 'total (USD)', 'Closing fair value', btcUnits(btc), money(totals.reduce((s, a) => s + cents(a['closing_fair_value']), 0n)), money(totals.reduce((s, a) => s + cents(a['cost_basis']), 0n)), `(${money(-cents(btc['remeasurement_losses']))})`]) {
      expect(words, expected).toContain(expected);
    }
    // the Overview's crypto block: the units in BTC beside the figures, and whether the lots tie
    expect(words).toMatch(/Crypto assets \(the lots; details: sheets Crypto assets and Lots\), USD/);
    // every location's lots: the service's wallets and the company's own custody
    const lotsOf = lots.filter((l) => l['currency'] === 'btc').length.toLocaleString('en-US');
    expect(words).toMatch(new RegExp(`BTC\\s+${lotsOf}\\s+${btcUnits(btc).replace(".", "\\.")}\\s+${money(cents(btc['cost_basis'])).replaceAll('.', '\\.')}\\s+${money(cents(btc['closing_fair_value'])).replaceAll('.', '\\.')}`));
  }, 900_000);
});
