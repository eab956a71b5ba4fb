/**
 * Forms 1099-DA on the demo's October, end to end: a first month-end gives the Merchant payouts
 * wallet's disposals; a broker's file is generated from them — sales reported exactly (principal
 * units, then all legs' units), one with basis reported and wrong, one with larger proceeds, one
 * dated a day late, a sale the books do not have, and a duplicate row — and a second month-end with
 * `lots.tax.forms1099DA` reads it. Python's csv reads what it wrote: the reconciliation file's
 * statuses, the Form 8949 lines' boxes, codes and adjustments, (h) still the books' gain, and the
 * totals per box; the findings are in exceptions.csv and the run exits 65 for the unmatched form.
 * openpyxl reads the statement's box sheets (each form's code in (f), its adjustment in (g), its
 * note beside the line) and LibreOffice prints them, read back by pdftotext.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatBase, groupThousands } from '../../../src/money/format.js';
import { startSimulator, type SimHandle } from '../../../src/sim/index.js';
import { scaled } from '../../support/journal/ledger-tools.js';
import { demoJournal, demoLots, monthEnd, pythonRows, type Rows } from '../../support/lots/demo-month-ends.js';
import { convertAllToPdf, pdfPages, pdfText, pdfToolsMissing } from '../../support/readers/libreoffice.js';
import { pythonForXlsx, QUIET_OPENPYXL, readersMissing, readXlsxWithOpenpyxl, type OpenpyxlCell, type OpenpyxlSheet } from '../../support/readers/readers.js';
import { runAgainstSimulator, type PipelineRun } from '../../support/pipeline/run-pipeline.js';

const TZ = 'America/New_York';
const WALLET = '6c5deed7-2187-4380-8b17-c8b8547bf9e3';
const skip = readersMissing('both') ?? pdfToolsMissing();
const cents = (s: string | undefined): bigint => scaled(s === undefined || s === '' ? '0' : s, 2);
const usDate = (iso: string): string => `${iso.slice(5, 7)}/${iso.slice(8, 10)}/${iso.slice(0, 4)}`;

describe.skipIf(skip !== null)(`Forms 1099-DA reconciled on the demo's October${skip ? ` (skipped: ${skip})` : ''}`, () => {
  let sim: SimHandle;
  let first: PipelineRun;
  let run: PipelineRun;
  let root: string;
  let lines: Rows;
  let rec: Rows;
  const refs: string[] = [];

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'payexport-1099da-'));
    sim = await startSimulator({ seed: 7, scale: 5_000, wallets: 12, profile: 'business' });
    const flags = { db: false as const, formats: ['csv' as const], journal: demoJournal };
    first = await runAgainstSimulator({ sim, spec: monthEnd('2026-10', false), tz: TZ, flags: { ...flags, lots: demoLots() } });
    const reliefs = pythonRows(join(first.dir, 'lot-reliefs.csv')).filter((r) => r['wallet_id'] === WALLET && r['disposal_ref']!.startsWith('captured:'));
    // each disposal's legs: units and proceeds of the principal and of all legs, its date and cost
    const byRef = new Map<string, Rows>();
    for (const r of reliefs) byRef.set(r['disposal_ref']!, [...(byRef.get(r['disposal_ref']!) ?? []), r]);
    const disposals = [...byRef.entries()].filter(([, rs]) => rs.some((r) => r['disposal_part'] !== 'principal')).slice(0, 9);
    const sum = (rs: Rows, col: string): bigint => rs.reduce((s, r) => s + (col === 'units_base' ? BigInt(r[col]!) : cents(r[col])), 0n);
    const btc = (msat: bigint): string => formatBase(msat, 11);
    const rowsOut = ['box_1b_name,box_1c_units,box_1e_date_sold,box_1f_proceeds,box_1g_cost_basis,box_2_basis_reported,transaction_id'];
    disposals.forEach(([ref, rs], i) => {
      refs.push(ref);
      const principal = rs.filter((r) => r['disposal_part'] === 'principal');
      const day = (rs[0]!['disposed_at'] ?? '').slice(0, 10);
      const all = i === 4;
      const legs = all ? rs : principal;
      let proceeds = sum(legs, 'proceeds');
      let basis = '';
      let reported = '';
      let date = usDate(day);
      if (i === 5) {
        basis = formatBase(sum(legs, 'cost_basis') + 10_00n, 2);
        reported = 'X';
      }
      if (i === 6) proceeds += 5_00n;
      if (i === 7) date = usDate(new Date(Date.parse(day) + 86_400_000).toISOString().slice(0, 10));
      rowsOut.push(`Bitcoin,${btc(sum(legs, 'units_base'))},${date},${formatBase(proceeds, 2)},${basis},${reported},`);
      if (i === 0) rowsOut.push(rowsOut[1]!); // the same form twice
    });
    rowsOut.push('Bitcoin,12.34567891,10/15/2026,1234.56,,,'); // a sale the books do not have
    const file = join(root, '1099-da.csv');
    writeFileSync(file, `${rowsOut.join('\r\n')}\r\n`);
    run = await runAgainstSimulator({ sim, spec: monthEnd('2026-10', false), tz: TZ, flags: { ...flags, formats: ['csv', 'xlsx'], lots: { ...demoLots(), tax: { forms1099DA: [{ file, broker: 'Demo Processor', wallets: [WALLET] }] } } } });
    lines = pythonRows(join(run.dir, 'form-8949.csv'));
    rec = pythonRows(join(run.dir, 'form-1099-da-reconciliation.csv'));
  }, 600_000);
  afterAll(async () => {
    await first?.cleanup();
    await run?.cleanup();
    await sim?.close();
    if (root !== undefined) rmSync(root, { recursive: true, force: true });
  });

  it('lists every form with its status, and every disposal of the wallet no form reports', () => {
    const forms = rec.filter((r) => r['file_line'] !== '');
    expect(forms.map((r) => `${r['file_line']} ${r['status']} ${r['differences']}`)).toEqual([
      '2 matched ', '3 duplicate ', '4 matched ', '5 matched ', '6 matched ', '7 matched ', '8 differs basis', '9 differs proceeds', '10 differs date', '11 matched ', '12 unmatched ',
    ]);
    expect(forms.filter((r) => r['disposal_ref'] !== '').map((r) => r['disposal_ref'])).toEqual(refs);
    const notReported = rec.filter((r) => r['status'] === 'not_reported');
    expect(notReported.length).toBeGreaterThan(10);
    expect(notReported.every((r) => r['wallet_id'] === WALLET && !refs.includes(r['disposal_ref']!))).toBe(true);
  });

  it('gives the reported sales boxes H/K (G/J with basis reported), codes O and B with their adjustments, and keeps (h) the books’ gain', () => {
    const reliefs = pythonRows(join(run.dir, 'lot-reliefs.csv'));
    for (const [i, ref] of refs.entries()) {
      const mine = lines.filter((l) => l['disposal_ref'] === ref && (i === 4 || l['disposal_part'] === 'principal'));
      expect(mine.length, ref).toBeGreaterThan(0);
      for (const l of mine) {
        const expected = i === 5 ? (l['part'] === 'I' ? 'G' : 'J') : l['part'] === 'I' ? 'H' : 'K';
        expect({ ref, box: l['box'] }).toEqual({ ref, box: expected });
        expect(l['(f) Code(s)']).toBe(i === 5 ? 'B' : i === 6 ? 'O' : '');
        const relief = reliefs.find((r) => r['disposal_ref'] === ref && r['lot_id'] === l['lot_id'] && r['disposal_part'] === l['disposal_part'])!;
        expect(cents(l['(h) Gain or (loss)'])).toBe(cents(relief['gain']));
      }
      if (i === 5) expect(mine.reduce((s, l) => s + cents(l['(g) Amount of adjustment']), 0n)).toBe(10_00n);
      if (i === 6) expect(mine.reduce((s, l) => s + cents(l['(g) Amount of adjustment']), 0n)).toBe(-5_00n);
      expect(mine[0]?.['note']).toMatch(/^Form 1099-DA from Demo Processor \(line \d+\)/);
    }
    // the wallet's fees of the principal-only forms, and its unreported disposals, stay in I/L
    expect(lines.filter((l) => l['wallet_id'] === WALLET && !refs.includes(l['disposal_ref']!)).every((l) => l['box'] === 'I' || l['box'] === 'L')).toBe(true);
  });

  it('totals each box as its lines, and the findings are in exceptions.csv: the unmatched form an error', async () => {
    const totals = pythonRows(join(run.dir, 'form-8949-totals.csv'));
    const boxes = totals.map((t) => t['box']!);
    expect([boxes.some((b) => 'GJ'.includes(b)), boxes.some((b) => 'HK'.includes(b)), boxes.some((b) => 'IL'.includes(b))]).toEqual([true, true, true]);
    for (const t of totals) expect(cents(t['gain'])).toBe(lines.filter((l) => l['box'] === t['box']).reduce((s, l) => s + cents(l['(h) Gain or (loss)']), 0n));
    const exceptions = await run.csv('exceptions.csv');
    const count = (id: string): number => exceptions.filter((e) => e['check_id'] === id).length;
    expect([count('tax.1099da_unmatched'), count('tax.1099da_duplicate'), count('tax.1099da_basis'), count('tax.1099da_proceeds'), count('tax.1099da_date')]).toEqual([1, 1, 1, 1, 1]);
    expect(exceptions.find((e) => e['check_id'] === 'tax.1099da_unmatched')?.['severity']).toBe('error');
    const manifest = await run.manifest();
    expect(manifest.checks.find((c) => c.check_id === 'tax.1099da_unmatched')).toMatchObject({ passed: false, findings: 1, skipped_reason: null });
    // the first run had no file: the Form 1099-DA checks did not run, so they are not listed (never shown as passed)
    const firstChecks = (await first.manifest()).checks.map((c) => c.check_id);
    expect(firstChecks.filter((id) => id.startsWith('tax.1099da_'))).toEqual([]);
    expect(firstChecks).toContain('tax.import_incomplete');
    expect(run.outcome.exitCode).toBe(65);
  });

  it('shows each form’s code in (f) and its adjustment in (g) on the statement, with its note beside the line, and prints them', () => {
    const totals = pythonRows(join(run.dir, 'form-8949-totals.csv'));
    const names = totals.map((t) => `Form 8949 box ${t['box']}`);
    const sheets = readXlsxWithOpenpyxl(join(run.dir, 'report.xlsx'), { cells: true, sheets: names });
    const text = (c: OpenpyxlCell | undefined): string => String(c?.v ?? '');
    const money = (c: OpenpyxlCell | undefined): bigint => cents(c?.v === null || c?.v === undefined ? '' : String(c.v));
    // every line row of every box sheet, with its box (row 6 holds the headers, the last row the totals)
    const rows = names.flatMap((name) => {
      const sheet = sheets.find((x) => x.name === name) as OpenpyxlSheet;
      return (sheet.rows ?? []).slice(6, -1).map((r) => ({ box: name.slice(-1), r }));
    });
    for (const [i, ref] of refs.entries()) {
      const mine = rows.filter(({ r }) => text(r[8]).startsWith(`${ref} (`) && (i === 4 || text(r[8]).startsWith(`${ref} (principal)`)));
      const csvLines = lines.filter((l) => l['disposal_ref'] === ref && (i === 4 || l['disposal_part'] === 'principal'));
      expect({ ref, n: mine.length }).toEqual({ ref, n: csvLines.length });
      expect({ ref, boxes: mine.map((m) => m.box).sort() }).toEqual({ ref, boxes: csvLines.map((l) => l['box']).sort() });
      expect({ ref, codes: [...new Set(mine.map(({ r }) => text(r[5])))] }).toEqual({ ref, codes: [i === 5 ? 'B' : i === 6 ? 'O' : ''] });
      const adjustment = mine.reduce((sum, { r }) => sum + money(r[6]), 0n);
      expect({ ref, adjustment }).toEqual({ ref, adjustment: i === 5 ? 10_00n : i === 6 ? -5_00n : 0n });
      if (i !== 5 && i !== 6) expect(mine.every(({ r }) => r[6]?.v === null || r[6]?.v === undefined)).toBe(true);
      // (h) = (d) − (e) + (g) as printed, and the form's note beside the line
      for (const { r } of mine) {
        expect(money(r[7])).toBe(money(r[3]) - money(r[4]) + money(r[6]));
        expect(text(r[8])).toMatch(/\nForm 1099-DA from Demo Processor \(line \d+\)/);
      }
    }
    // printed: LibreOffice to PDF, poppler reads each box's totals — (g) among them — and the codes
    const only = join(root, 'statement.xlsx');
    execFileSync(pythonForXlsx()!, ['-c', `import json, openpyxl, sys, warnings\n${QUIET_OPENPYXL}\nwb = openpyxl.load_workbook(sys.argv[1])\nfor ws in list(wb.worksheets):\n    if ws.title not in json.loads(sys.argv[3]):\n        wb.remove(ws)\nwb.save(sys.argv[2])`, join(run.dir, 'report.xlsx'), only, JSON.stringify(names.filter((n) => !/box [IL]$/.test(n)))]);
    const [pdf] = convertAllToPdf([only], join(root, 'pdf'), join(root, 'lo')) as [string];
    const words = pdfText(pdf);
    const shown = (v: bigint): string => (v < 0n ? `(${groupThousands(formatBase(-v, 2))})` : groupThousands(formatBase(v, 2)));
    for (const t of totals.filter((x) => 'GHJK'.includes(x['box']!))) {
      expect(words).toContain(`Box ${t['box']} checked`);
      for (const column of ['proceeds', 'cost_basis', 'adjustments', 'gain'] as const) {
        if (t[column] === '' || cents(t[column]) === 0n) continue;
        expect(words, `${t['box']} ${column}`).toContain(shown(cents(t[column])));
      }
    }
    const boxSum = (boxes: string): bigint => totals.filter((t) => boxes.includes(t['box']!)).reduce((sum, t) => sum + cents(t['adjustments']), 0n);
    expect([boxSum('GJ'), boxSum('HK')]).toEqual([10_00n, -5_00n]);
    const printed = pdfPages(pdf).flat().map((w) => w.text);
    expect([printed.includes('B'), printed.includes('O')]).toEqual([true, true]);
    expect([printed.includes('Demo'), printed.includes('Processor')]).toEqual([true, true]);
  }, 300_000);
});
