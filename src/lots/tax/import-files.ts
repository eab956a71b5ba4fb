/**
 * The import files of the tax pass (docs/tax.md "Imports"): form-8949-taxact.csv for TaxAct's CSV
 * import and form-8949.txf for TurboTax's TXF import, written as text (no byte-order mark; the
 * folder's CSV options are for people's spreadsheets, these are for programs), and the findings
 * that say what they could not hold.
 */
import type { Finding } from '../../model/results.js';
import type { ExtraFileHandle } from '../../model/report-output.js';
import { finding } from '../../reconcile/findings.js';
import type { Form8949Line } from './form-8949-lines.js';
import { TAXACT_MAX_TRANSACTIONS, TAXACT_TABLE, taxActFile } from './taxact-file.js';
import { txfFile } from './txf-file.js';

export const TXF_FILE = 'form-8949.txf';

export async function writeImportFiles(folder: { extraFile(name: string): ExtraFileHandle }, lines: readonly Form8949Line[], options: { minorUnits: number; exportDay: string; eol: 'crlf' | 'lf' }): Promise<{ findings: Finding[]; evaluated: Record<string, number> }> {
  const findings: Finding[] = [];
  const taxact = taxActFile(lines, options.minorUnits, options.eol);
  await write(folder.extraFile(TAXACT_TABLE.file), taxact.text, taxact.rows);
  const [y, m, d] = options.exportDay.split('-');
  const txf = txfFile(lines, { program: 'payexport', exportDay: `${m}/${d}/${y}`, minorUnits: options.minorUnits });
  // the TXF refnums cover boxes A–F only: a window of digital-asset boxes (from 2025) has nothing to write
  if (txf.rows > 0) await write(folder.extraFile(TXF_FILE), txf.text, txf.rows);
  if (taxact.incomplete > 0) {
    findings.push(finding('tax.import_incomplete', { subject_kind: 'run', subject_id: TAXACT_TABLE.file, wallet_id: null, actual: BigInt(taxact.incomplete), message: `${taxact.incomplete} Form 8949 line(s) with an unknown proceeds or basis are left out of the import files (they would import as zero); complete them, then enter them by hand` }));
  }
  if (taxact.rows > TAXACT_MAX_TRANSACTIONS) {
    findings.push(finding('tax.import_limit', { subject_kind: 'run', subject_id: TAXACT_TABLE.file, wallet_id: null, expected: BigInt(TAXACT_MAX_TRANSACTIONS), actual: BigInt(taxact.rows), message: `${TAXACT_TABLE.file} has ${taxact.rows} lines; TaxAct imports at most ${TAXACT_MAX_TRANSACTIONS} per return: attach the Form 8949 statement and enter each box's totals (form-8949-totals.csv) instead` }));
  }
  return { findings, evaluated: { 'tax.import_incomplete': lines.length, 'tax.import_limit': 1 } };
}

async function write(file: ExtraFileHandle, text: string, rows: number): Promise<void> {
  await file.write(text);
  await file.close(rows);
}
