/**
 * One check of a published report folder by the independent readers (readers.ts), shared by every
 * suite that produces folders (unit report writer, CLI runs, the demo, the fault suite):
 *
 * - every CSV the manifest lists, read by Python's csv module: the manifest's record count, the
 *   header of its table spec, every record as wide as the header, and no field that begins with a
 *   formula trigger (amounts, counts and exact decimals may begin with `-`: they are numbers);
 * - the workbook, read by openpyxl: the manifest's table sheets present, in order, with its row
 *   counts (subtotal rows included); each with a frozen header row and an autofilter; the spec's
 *   header; and every cell of the type the column docs promise (a subtotal's sum is a formula) (numbers for amounts that fit 15 digits, exact text otherwise;
 *   text for text; dates for instants; booleans for yes/no), no text cell beginning with a trigger.
 *
 * Problems are returned as lines (file, record, column), so a failing test shows what a user's
 * spreadsheet would get wrong instead of a bare `false`.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { FORMULA_TRIGGER_CHARS } from '../../../src/sinks/cells.js';
import { tableColumns, type AnyTableSpec, type ColumnType } from '../../../src/model/column-spec.js';
import type { Manifest, ManifestFile } from '../../../src/sinks/manifest.js';
import { ALL_TABLES } from '../../../src/sinks/tables/index.js';
import { JOURNAL_TABLE } from '../../../src/journal/formats/journal-table.js';
import { QBO_TABLE } from '../../../src/journal/formats/qbo-table.js';
import { CRYPTO_ASSETS_TABLE } from '../../../src/lots/tables/crypto-assets.js';
import { FORM_8949_TABLE } from '../../../src/lots/tables/form-8949.js';
import { FORM_8949_TOTALS_TABLE } from '../../../src/lots/tables/form-8949-totals.js';
import { FORM_1099DA_RECONCILIATION_TABLE } from '../../../src/lots/tables/form-1099da-reconciliation.js';
import { TAXACT_TABLE } from '../../../src/lots/tax/taxact-file.js';
import { ALLOCATION_TABLE } from '../../../src/lots/tables/allocation-statement.js';
import { LOT_RELIEFS_TABLE } from '../../../src/lots/tables/lot-reliefs.js';
import { LOTS_TABLE } from '../../../src/lots/tables/lots.js';
import { XERO_TABLE } from '../../../src/journal/formats/xero-table.js';

/** every table the product writes: the report's own and the journal's (present with a mapping) */
const TABLES: readonly AnyTableSpec[] = [...ALL_TABLES, JOURNAL_TABLE, QBO_TABLE, XERO_TABLE, LOT_RELIEFS_TABLE, LOTS_TABLE, FORM_8949_TABLE, FORM_8949_TOTALS_TABLE, TAXACT_TABLE, FORM_1099DA_RECONCILIATION_TABLE, ALLOCATION_TABLE, CRYPTO_ASSETS_TABLE] as readonly AnyTableSpec[];
import { readCsvWithPython, readXlsxWithOpenpyxl, type OpenpyxlCell } from './readers.js';

const TRIGGERS: ReadonlySet<string> = new Set(FORMULA_TRIGGER_CHARS);
const NUMERIC_TYPES: ReadonlySet<ColumnType> = new Set(['base', 'display', 'count', 'bps', 'decimal']);
const TEXT_TYPES: ReadonlySet<ColumnType> = new Set(['id', 'text', 'enum', 'currency', 'list', 'json', 'instant_utc']);
const PLAIN_DECIMAL = /^-?\d+(?:\.\d+)?$/;
/** Enough lines to see the pattern; a broken file would otherwise print thousands. */
const MAX_PROBLEMS_PER_FILE = 12;

export interface FolderCheckOptions {
  /** read the workbook too (default: when the manifest lists one) */
  readonly xlsx?: boolean;
}

function specByFile(file: string): AnyTableSpec | undefined {
  return TABLES.find((t) => t.file === file);
}

/** The table spec of a table sheet's name, continuation sheets (`Payments (2)`) included; a laid-out sheet (a note) is none. */
function specBySheet(sheet: string): AnyTableSpec | undefined {
  const base = sheet.replace(/ \(\d+\)$/, '');
  return TABLES.find((t) => t.sheet === base && t.laidOut !== true);
}

function startsWithTrigger(value: string): boolean {
  return value.length > 0 && TRIGGERS.has(value[0] as string);
}

function show(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

class Problems {
  readonly lines: string[] = [];
  private readonly perFile = new Map<string, number>();

  add(file: string, message: string): void {
    const n = (this.perFile.get(file) ?? 0) + 1;
    this.perFile.set(file, n);
    if (n <= MAX_PROBLEMS_PER_FILE) this.lines.push(`${file}: ${message}`);
    else if (n === MAX_PROBLEMS_PER_FILE + 1) this.lines.push(`${file}: ... (more problems left out)`);
  }
}

function checkCsv(dir: string, file: ManifestFile, problems: Problems): void {
  const spec = specByFile(file.path);
  const csv = readCsvWithPython(join(dir, file.path));
  if (csv.records !== file.rows) problems.add(file.path, `Python's csv reads ${csv.records} records, the manifest says ${file.rows}`);
  if (spec === undefined) {
    problems.add(file.path, 'no table spec describes this CSV');
    return;
  }
  const header = tableColumns(spec).map((c) => c.name);
  if (JSON.stringify(csv.header) !== JSON.stringify(header)) problems.add(file.path, `header ${show(csv.header)} is not the spec's ${show(header)}`);
  csv.rows.forEach((row, index) => {
    // record numbers as a user counts them: the header is record 1
    const record = index + 2;
    if (row.length !== header.length) problems.add(file.path, `record ${record} has ${row.length} fields, the header ${header.length} (first field ${show(row[0])})`);
    row.forEach((value, i) => {
      const column = tableColumns(spec)[i];
      if (column === undefined || !startsWithTrigger(value)) return;
      if (NUMERIC_TYPES.has(column.type) && PLAIN_DECIMAL.test(value)) return;
      problems.add(file.path, `record ${record}, ${column.name}: field begins with a formula trigger: ${show(value)}`);
    });
  });
}

/** What openpyxl must see in a cell of `type` (column-spec.ts COLUMN_TYPE_INFO), or null when it does. */
function cellProblem(type: ColumnType, cell: OpenpyxlCell): string | null {
  if (cell.t === null) return null;
  if (NUMERIC_TYPES.has(type)) {
    // a subtotal row's sums are formulas over the column (xlsx-subtotals.ts; their results are checked where they are written)
    if (cell.t === 'n' || cell.t === 'f') return null;
    // an amount beyond Excel's 15 digits is kept as exact text; a decimal column may hold words
    if (cell.t === 's' && (type === 'decimal' || (typeof cell.v === 'string' && PLAIN_DECIMAL.test(cell.v)))) return null;
    return `a ${type} cell of type ${cell.t}: ${show(cell.v)}`;
  }
  if (TEXT_TYPES.has(type)) {
    if (cell.t !== 's') return `a ${type} cell of type ${cell.t}, not text: ${show(cell.v)}`;
    if (typeof cell.v === 'string' && startsWithTrigger(cell.v)) return `text begins with a formula trigger: ${show(cell.v)}`;
    return null;
  }
  if (type === 'instant' || type === 'date') return cell.t === 'd' ? null : `an ${type} cell of type ${cell.t}, not a date: ${show(cell.v)}`;
  return cell.t === 'b' ? null : `a yes/no cell of type ${cell.t}: ${show(cell.v)}`;
}

function checkWorkbook(dir: string, file: ManifestFile, problems: Problems): void {
  const sheets = readXlsxWithOpenpyxl(join(dir, file.path), { cells: true });
  const expected = file.sheets ?? [];
  const names = sheets.map((s) => s.name);
  const tableSheetsRead = names.filter((n) => specBySheet(n) !== undefined);
  const tableSheetsListed = expected.map((s) => s.name);
  if (JSON.stringify(tableSheetsRead) !== JSON.stringify(tableSheetsListed)) problems.add(file.path, `table sheets ${JSON.stringify(tableSheetsRead)} are not the manifest's ${JSON.stringify(tableSheetsListed)}`);
  let dataRows = 0;
  for (const listed of expected) {
    const sheet = sheets.find((s) => s.name === listed.name);
    const at = `sheet "${listed.name}"`;
    if (sheet === undefined) {
      problems.add(file.path, `${at} is missing`);
      continue;
    }
    if (sheet.max_row !== listed.rows) problems.add(file.path, `${at}: openpyxl reads ${sheet.max_row} rows, the manifest says ${listed.rows}`);
    dataRows += Math.max(0, sheet.max_row - 1);
    // the header row is frozen (and, on table sheets, the first column with it: B2)
    if (sheet.freeze_panes === null || !/^[A-Z]+2$/.test(sheet.freeze_panes)) problems.add(file.path, `${at}: header not frozen (freeze_panes ${show(sheet.freeze_panes)})`);
    if (sheet.auto_filter === null || !sheet.auto_filter.startsWith('A1:')) problems.add(file.path, `${at}: no autofilter on the header (${show(sheet.auto_filter)})`);
    const spec = specBySheet(listed.name);
    if (spec === undefined) continue;
    const [head = [], ...rows] = sheet.rows ?? [];
    // the sheet's order: the columns a person prints first, then the others in the CSV's order
    const printed = spec.printColumns ?? [];
    const columns = [...printed.map((name) => tableColumns(spec).find((c) => c.name === name)), ...tableColumns(spec).filter((c) => !printed.includes(c.name))].filter((c) => c !== undefined);
    const header = columns.map((c) => c.name);
    const headRead = head.map((c) => c.v);
    if (JSON.stringify(headRead) !== JSON.stringify(header)) problems.add(file.path, `${at}: header ${show(headRead)} is not the spec's`);
    // one page across (docs/reports.md#printing-8-pt-or-more-on-a4-and-letter)
    if (sheet.fit_to_width !== 1) problems.add(file.path, `${at}: prints ${show(sheet.fit_to_width)} pages across, not one`);
    rows.forEach((row, index) => {
      columns.forEach((column, i) => {
        const cell = row[i];
        const problem = cell === undefined ? null : cellProblem(column.type, cell);
        if (problem !== null) problems.add(file.path, `${at}, row ${index + 2}, ${column.name}: ${problem}`);
      });
    });
  }
  if (dataRows !== file.rows) problems.add(file.path, `openpyxl reads ${dataRows} data rows in the table sheets, the manifest says ${file.rows}`);
}

/** Every disagreement between the independent readers and the folder's manifest; [] when none. */
export function independentReaderProblems(dir: string, options: FolderCheckOptions = {}): string[] {
  const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as Manifest;
  const problems = new Problems();
  for (const file of manifest.files) {
    if (file.path.endsWith('.csv')) checkCsv(dir, file, problems);
    else if (file.path.endsWith('.xlsx') && options.xlsx !== false) checkWorkbook(dir, file, problems);
  }
  return problems.lines;
}

/** Asserts that the independent readers agree with the folder's manifest (see file comment). */
export function checkFolderWithIndependentReaders(dir: string, options: FolderCheckOptions = {}): void {
  expect(independentReaderProblems(dir, options), `${dir} read by Python's csv and openpyxl`).toEqual([]);
}
