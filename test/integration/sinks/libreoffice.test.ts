/**
 * Opens the files in a real spreadsheet (LibreOffice headless) and reads back what it computed:
 * no payload may be evaluated as a formula (SEC-05), big amounts stay exact in the workbook.
 * Needs `soffice` (apt-get install libreoffice-calc); skipped where it is not installed.
 */
import { execFile } from 'node:child_process';
import { copyFile, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { neutralizeFormula, xlsxText } from '../../../src/sinks/cells.js';
import { HOSTILE_TEXTS } from '../../support/sinks/rows.js';
import { writeSmallReport } from '../../support/sinks/write-report.js';

const run = promisify(execFile);
const hasSoffice = await run('soffice', ['--version']).then(
  () => true,
  () => false,
);
// every sheet to its own UTF-8 CSV, raw values (not "as shown")
const EXPORT_ALL = 'csv:Text - txt - csv (StarCalc):44,34,76,1,,0,false,true,false,false,false,-1';
// import CSV with "evaluate formulas" ON: the worst case for an accountant double-clicking the file
const IMPORT_EVALUATING = 'CSV:44,34,76,1,,0,false,true,false,false,false,false,true';

let root: string;
let dir: string;

async function soffice(args: string[], cwd: string): Promise<void> {
  await run('soffice', ['--headless', `-env:UserInstallation=file://${join(root, 'lo-profile')}`, ...args], { cwd, timeout: 120_000 });
}

function table(text: string): Record<string, string>[] {
  const [header = [], ...rows] = parse(text, { bom: true, relax_column_count: true }) as string[][];
  return rows.map((r) => Object.fromEntries(header.map((h, i) => [h, r[i] ?? ''])));
}

// Skipped where LibreOffice is not installed (CI installs only npm packages; `apt-get install
// libreoffice-calc` runs it): opening the files in a real spreadsheet is an extra check on top of
// the exceljs/csv-parse read-backs that always run.
describe.skipIf(!hasSoffice)('LibreOffice opens the report without computing any payload', () => {
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'payexport-lo-'));
    dir = (await writeSmallReport(join(root, 'out'))).dir;
    await copyFile(join(dir, 'report.xlsx'), join(root, 'report.xlsx'));
    await copyFile(join(dir, 'payments.csv'), join(root, 'payments.csv'));
    await soffice(['--convert-to', EXPORT_ALL, '--outdir', join(root, 'x'), 'report.xlsx'], root);
    await soffice([`--infilter=${IMPORT_EVALUATING}`, '--convert-to', EXPORT_ALL, '--outdir', join(root, 'c'), 'payments.csv'], root);
  });

  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('report.xlsx: every payload is the neutralized text and big amounts are exact', async () => {
    const rows = table(await readFile(join(root, 'x', 'report-Payments.csv'), 'utf8'));
    HOSTILE_TEXTS.forEach((text, i) => {
      expect(rows[4 + i]?.description).toBe(xlsxText(neutralizeFormula(text)).text);
    });
    expect(rows[1]?.principal_base).toBe('2100000000000000000');
    expect(rows[2]?.principal_base).toBe('-12345');
  });

  it('payments.csv opened with formula evaluation on: payloads stay text', async () => {
    const rows = table(await readFile(join(root, 'c', 'payments-payments.csv'), 'utf8'));
    const descriptions = rows.map((r) => r.description);
    // a negative amount is read as a number, not text ('-123.45' would come back with its apostrophe)
    expect([rows[2]?.principal_base, rows[2]?.principal]).toEqual(['-12345', '-123.45']);
    for (const text of HOSTILE_TEXTS) {
      // LibreOffice drops NUL on import, and its CSV import breaks records at CR/LF inside quoted
      // fields (RFC 4180 allows them; Excel reads them) — those two payloads are checked in the XLSX.
      if (/[\r\n]/.test(text)) continue;
      expect(descriptions).toContain(neutralizeFormula(text).replaceAll('\u0000', ''));
    }
    // what the payloads would compute to: =1+1, -2+3, HYPERLINK(...), SUM(1)
    for (const computed of ['2', '1', 'click']) expect(descriptions).not.toContain(computed);
  });
});
