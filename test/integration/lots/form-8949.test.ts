/**
 * Form 8949 as a preparer meets it on the demo's October (the simulator the demo runs, with its
 * journal and lots sections), read by software that did not write it:
 *
 * - Python's csv reads form-8949.csv: every line in box I (short) or L (long) — the demo's wallets
 *   receive no Form 1099-DA — with its Schedule D line, (h) = (d) − (e) + (g), a description of at
 *   most 8 decimals (or "less than 0.00000001 BTC"), the raw reference in its own column; and every
 *   0.00-proceeds line is a fee leg whose value, at the journal's own rate for that entry
 *   (journal.csv), is under one cent — a price was there, the cent was not — and says so;
 * - form-8949-totals.csv is, per box, the sum of its lines, and the boxes' gains add up to the
 *   realized gain of crypto-assets.csv;
 * - Python's csv reads the TaxAct import: its headings, no byte-order mark, one row per line; and
 *   the 1 January 2025 allocation: the opening-lots file's rows before 2025, per wallet;
 * - openpyxl reads the statement's sheets, one per box: the box's text as the form prints it, the
 *   form's column headers repeated on every page, one page wide, the totals row's formulas;
 * - LibreOffice prints the statement to PDF and poppler reads it back: the title, the entity, the
 *   box, the totals with the Schedule D line, page N of M, and no word under 8 pt.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatBase, groupThousands } from '../../../src/money/format.js';
import { startSimulator, type SimHandle } from '../../../src/sim/index.js';
import { scaled } from '../../support/journal/ledger-tools.js';
import { demoJournal, demoLots, demoOpeningLotsPath, monthEnd, pythonRows, type Rows } from '../../support/lots/demo-month-ends.js';
import { convertAllToPdf, eightPointHeight, eightPointReference, pdfPages, pdfText, pdfToolsMissing } from '../../support/readers/libreoffice.js';
import { pythonForXlsx, QUIET_OPENPYXL, readCsvWithPython, readersMissing, readXlsxWithOpenpyxl, sheetNamed, type OpenpyxlCell } from '../../support/readers/readers.js';
import { runAgainstSimulator, type PipelineRun } from '../../support/pipeline/run-pipeline.js';

const TZ = 'America/New_York';
const skip = readersMissing('both') ?? pdfToolsMissing();
const cents = (s: string | undefined): bigint => scaled(s === undefined || s === '' ? '0' : s, 2);
const text = (c: OpenpyxlCell | undefined): string => String(c?.v ?? '');

describe.skipIf(skip !== null)(`Form 8949 of the demo's October: lines, boxes, totals and the statement${skip ? ` (skipped: ${skip})` : ''}`, () => {
  let sim: SimHandle;
  let run: PipelineRun;
  let root: string;
  let lines: Rows;
  let totals: Rows;

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'payexport-8949-'));
    sim = await startSimulator({ seed: 7, scale: 5_000, wallets: 12, profile: 'business' });
    run = await runAgainstSimulator({ sim, spec: monthEnd('2026-10', false), tz: TZ, flags: { db: false, formats: ['csv', 'xlsx'], journal: demoJournal, lots: demoLots() } });
    lines = pythonRows(join(run.dir, 'form-8949.csv'));
    totals = pythonRows(join(run.dir, 'form-8949-totals.csv'));
  }, 300_000);
  afterAll(async () => {
    await run?.cleanup();
    await sim?.close();
    if (root !== undefined) rmSync(root, { recursive: true, force: true });
  });

  it('puts every line in box I or L with its Schedule D line, (h) = (d) − (e) + (g), and a description of at most 8 decimals', () => {
    const reliefs = pythonRows(join(run.dir, 'lot-reliefs.csv'));
    expect(lines.length).toBe(reliefs.length);
    for (const l of lines) {
      expect({ part: l['part'], box: l['box'], line: l['schedule_d_line'], year: l['tax_year'] }).toEqual(l['part'] === 'I' ? { part: 'I', box: 'I', line: '3', year: '2026' } : { part: 'II', box: 'L', line: '10', year: '2026' });
      expect(cents(l['(h) Gain or (loss)'])).toBe(cents(l['(d) Proceeds']) - cents(l['(e) Cost or other basis']) + cents(l['(g) Amount of adjustment']));
      expect(l['(a) Description of property']).toMatch(/^(\d+\.\d{8} BTC|less than 0\.00000001 BTC \(\d{1,3} msat\)|\d+\.\d{1,8} USDT)$/);
      expect(l['(b) Date acquired']).toMatch(/^\d\d\/\d\d\/\d{4}$/);
      expect(l['disposal_ref']).toMatch(/^(captured|withdrawn):/);
    }
    // Part I first, and the raw reference in its own column (never in the description)
    const parts = lines.map((l) => l['part']);
    expect(parts.lastIndexOf('I')).toBeLessThan(parts.indexOf('II'));
    expect(lines.some((l) => l['(a) Description of property']?.includes(':'))).toBe(false);
    // the exact units are kept: the description rounds to the satoshi, units_base does not
    expect(lines.filter((l) => BigInt(l['units_base']!) % 1000n !== 0n).length).toBeGreaterThan(0);
  });

  it('explains every 0.00-proceeds line: a fee leg valued under one cent at the journal’s own rate, not a missing price', () => {
    const journal = pythonRows(join(run.dir, 'journal.csv'));
    const zero = lines.filter((l) => l['(d) Proceeds'] === '0.00');
    expect(zero.length).toBeGreaterThan(0);
    for (const l of zero) {
      const leg = journal.find((j) => j['ledger_entry'] === l['disposal_ref'] && j['component'] === l['disposal_part']);
      expect(leg, l['disposal_ref']).toBeDefined();
      expect(leg?.['needs_price']).toBe('false');
      // units (BTC, 11 decimals) × the entry's rate (USD/BTC, 2 decimals): exact in integers, × 10^13
      const [rate] = (leg?.['rate'] ?? '').split(' ');
      const value = scaled(l['units']!, 11) * scaled(rate!, 2);
      expect(value < 1n * 10n ** 13n * 1n, `${l['disposal_ref']}: ${l['units']} BTC at ${rate}`).toBe(true);
      expect(value > 0n).toBe(true);
      expect(l['note']).toMatch(/^Proceeds under 0\.01 USD: the journal values this (network fee|processing fee|principal)'s share at less than one cent, which rounds to 0\.00; the disposal is reported all the same\.$/);
    }
    expect(lines.filter((l) => l['note'] !== '').length).toBe(zero.length);
  });

  it('totals each box for Schedule D: the sums of its lines, and together the realized gain', () => {
    expect(totals.map((t) => `${t['part']} ${t['box']} ${t['schedule_d_line']}`)).toEqual(['I I 3', 'II L 10']);
    for (const t of totals) {
      const mine = lines.filter((l) => l['box'] === t['box']);
      expect(Number(t['lines'])).toBe(mine.length);
      for (const [total, column] of [['proceeds', '(d) Proceeds'], ['cost_basis', '(e) Cost or other basis'], ['adjustments', '(g) Amount of adjustment'], ['gain', '(h) Gain or (loss)']] as const) {
        expect({ box: t['box'], total, v: cents(t[total]) }).toEqual({ box: t['box'], total, v: mine.reduce((s, l) => s + cents(l[column]), 0n) });
      }
      expect(t['complete']).toBe('true');
    }
    // crypto-assets.csv: one row per currency for every location (`all`), and one per location beside it
    const assets = pythonRows(join(run.dir, 'crypto-assets.csv')).filter((a) => a['location'] === 'all');
    expect(totals.reduce((s, t) => s + cents(t['gain']), 0n)).toBe(assets.reduce((s, a) => s + cents(a['realized_gain']), 0n));
  });

  it('writes the TaxAct import: its headings, no byte-order mark, one row per line, the totals per category; no TXF for 2026', () => {
    const raw = readFileSync(join(run.dir, 'form-8949-taxact.csv'));
    expect(raw.subarray(0, 3).toString('hex')).not.toBe('efbbbf');
    const taxact = readCsvWithPython(join(run.dir, 'form-8949-taxact.csv'));
    expect(taxact.header).toEqual(['Description', 'Date Acquired', 'Date Sold', 'Sales Proceeds', 'Cost or Other Basis', 'Adjustment Code', 'Adjustment Amount', 'Reporting Category']);
    expect(taxact.rows.length).toBe(lines.length);
    for (const t of totals) {
      const mine = taxact.rows.filter((r) => r[7] === t['box']);
      expect({ box: t['box'], n: mine.length, proceeds: mine.reduce((s, r) => s + cents(r[3]), 0n), cost: mine.reduce((s, r) => s + cents(r[4]), 0n) }).toEqual({ box: t['box'], n: Number(t['lines']), proceeds: cents(t['proceeds']), cost: cents(t['cost_basis']) });
    }
    expect(existsSync(join(run.dir, 'form-8949.txf'))).toBe(false);
  });

  it('states the 1 January 2025 allocation: per wallet, the opening lots acquired before 2025, with their basis and date', () => {
    const allocation = pythonRows(join(run.dir, 'rev-proc-2024-28-allocation.csv'));
    const opening = readCsvWithPython(demoOpeningLotsPath);
    const before2025 = opening.rows.filter((r) => (r[2] ?? '') < '2025');
    expect(allocation.length).toBe(before2025.length);
    expect(allocation.length).toBeGreaterThan(0);
    for (const a of allocation) {
      const source = before2025.find((r) => r[0] === a['wallet_id'] && r[3] === a['units_base'] && r[5] === a['held_as']);
      expect(source, a['wallet_id']).toBeDefined();
      expect([a['unused_basis'], a['acquisition_date']]).toEqual([source?.[4], '03/15/2024']);
    }
    const sheet = sheetNamed(readXlsxWithOpenpyxl(join(run.dir, 'report.xlsx'), { cells: true, sheets: ['1 Jan 2025 allocation'] }), '1 Jan 2025 allocation');
    const words = (sheet.rows ?? []).map((r) => r.map(text).join(' ')).join('\n');
    expect(words).toContain('Allocation of unused basis as of 1 January 2025 — Demo Company, Inc.');
    expect(words).toContain('immediately after the close of the taxpayer\'s day on December 31, 2024');
    expect(words).toMatch(/Basis allocated in all: [\d,]+\.\d\d USD over \d+ lot\(s\) in \d+ wallet\(s\)\./);
  });

  it('lays out the statement, one sheet per box, the form’s columns on every page, one page wide, the totals as formulas', () => {
    const sheets = readXlsxWithOpenpyxl(join(run.dir, 'report.xlsx'), { cells: true, sheets: ['Form 8949 box I', 'Form 8949 box L', 'Form 8949 totals'] });
    for (const t of totals) {
      const sheet = sheetNamed(sheets, `Form 8949 box ${t['box']}`);
      const rows = sheet.rows ?? [];
      const top = rows.slice(0, 5).map((r) => text(r[0])).join('\n');
      expect(top).toContain('Form 8949 statement — Sales and Other Dispositions of Capital Assets, tax year 2026');
      expect(top).toContain('Name shown on return: Demo Company, Inc.');
      expect(top).toContain(`Box ${t['box']} checked: ${t['box_text']}.`);
      expect(sheet.print_title_rows).toBe('$6:$6');
      expect({ fit: sheet.fit_to_width, orientation: sheet.orientation }).toEqual({ fit: 1, orientation: 'landscape' });
      expect(rows[5]?.slice(0, 8).map(text)).toEqual(['(a) Description of property', '(b) Date acquired (Mo., day, yr.)', '(c) Date sold or disposed of (Mo., day, yr.)', '(d) Proceeds (sales price)', '(e) Cost or other basis', '(f) Code(s)', '(g) Amount of adjustment', '(h) Gain or (loss)']);
      expect(rows.length).toBe(6 + Number(t['lines']) + 1);
      const last = rows[rows.length - 1]!;
      expect(text(last[0])).toContain(`include on Schedule D, line ${t['schedule_d_line']}`);
      expect(text(last[3])).toBe(`=SUM(D7:D${rows.length - 1})`);
    }
  });

  it('prints the statement legibly: LibreOffice to PDF, read back by pdftotext', () => {
    const only = join(root, 'statement.xlsx');
    const keep = JSON.stringify(totals.map((t) => `Form 8949 box ${t['box']}`));
    execFileSync(pythonForXlsx()!, ['-c', `import json, openpyxl, sys, warnings\n${QUIET_OPENPYXL}\nwb = openpyxl.load_workbook(sys.argv[1])\nfor ws in list(wb.worksheets):\n    if ws.title not in json.loads(sys.argv[3]):\n        wb.remove(ws)\nwb.save(sys.argv[2])`, join(run.dir, 'report.xlsx'), only, keep]);
    const [reference, pdf] = convertAllToPdf([eightPointReference(root), only], join(root, 'pdf'), join(root, 'lo')) as [string, string];
    const eight = eightPointHeight(reference);
    const pages = pdfPages(pdf);
    expect(pages.length).toBeGreaterThan(10);
    const small = pages.flatMap((words, i) => words.filter((w) => w.height < eight * 0.99).map((w) => `page ${i + 1}: "${w.text}"`));
    expect(small.slice(0, 10)).toEqual([]);
    const words = pdfText(pdf);
    for (const t of totals) {
      expect(words).toContain(`Box ${t['box']} checked`);
      expect(words).toContain(`include on Schedule D, line ${t['schedule_d_line']}`);
      for (const column of ['proceeds', 'cost_basis', 'gain'] as const) {
        const v = cents(t[column]);
        const shown = groupThousands(formatBase(v < 0n ? -v : v, 2));
        expect(words, `${t['box']} ${column}`).toContain(v < 0n ? `(${shown})` : shown);
      }
    }
    expect(words).toContain('Form 8949 statement — Sales and Other Dispositions of Capital Assets');
    expect(words).toContain('Demo Company, Inc.');
    expect(words).toMatch(/Page 1 of \d+/);
    // the column headers are on every page (print titles)
    const headless = pages.map((p, i) => ({ page: i + 1, words: p.slice(0, 12).map((w) => w.text).join(' ') })).filter((_, i) => !(pages[i] ?? []).some((w) => w.text === '(a)'));
    expect(headless).toEqual([]);
  }, 900_000);
});
