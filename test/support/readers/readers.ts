/**
 * Independent readers: every file format payexport writes is read back in the tests by software
 * that shares no code with the writer — CSV by Python's standard `csv` module, XLSX by openpyxl.
 * A file that only our own libraries (csv-parse, exceljs) can read back is not proven: csv-parse,
 * for one, accepts a bare LF inside an unquoted field once it has seen CRLF records, which Python,
 * Excel and LibreOffice read as a new record.
 *
 * The interpreter: $PAYEXPORT_PYTHON, else Debian's /usr/bin/python3 (where `apt-get install
 * python3-openpyxl` puts openpyxl), else the first python3 on PATH. Suites skip visibly when no
 * interpreter (or no openpyxl) is found, and fail instead under PAYEXPORT_REQUIRE_READERS=1, which
 * .ci/run sets after installing them.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const HERE = fileURLToPath(new URL('.', import.meta.url));
const READ_CSV = `${HERE}read_csv.py`;
const READ_XLSX = `${HERE}read_xlsx.py`;
/** Large workbooks print large JSON; the default 1 MB would cut them off. */
const MAX_BUFFER = 1024 * 1024 * 1024;

function candidates(): string[] {
  const list = [process.env['PAYEXPORT_PYTHON'], '/usr/bin/python3', 'python3'].filter((p): p is string => p !== undefined && p !== '');
  return list.filter((p) => !p.startsWith('/') || existsSync(p));
}

function runs(python: string, code: string): boolean {
  const result = spawnSync(python, ['-c', code], { stdio: 'ignore', timeout: 30_000 });
  return result.status === 0;
}

let csvPython: string | null | undefined;
let xlsxPython: string | null | undefined;

/** A python3 with the `csv` module, or null. */
export function pythonForCsv(): string | null {
  csvPython ??= candidates().find((p) => runs(p, 'import csv, json')) ?? null;
  return csvPython;
}

/**
 * A line of Python for inline scripts that load our workbooks with openpyxl (after `import
 * warnings`): it silences the one warning openpyxl gives on the x14 extension list exceljs writes,
 * as read_xlsx.py does, so a real warning stands out in the test log.
 */
export const QUIET_OPENPYXL = `warnings.filterwarnings("ignore", message="Unknown extension is not supported", category=UserWarning)`;

/** A python3 that can import openpyxl, or null. */
export function pythonForXlsx(): string | null {
  xlsxPython ??= candidates().find((p) => runs(p, 'import openpyxl')) ?? null;
  return xlsxPython;
}

const REQUIRED = process.env['PAYEXPORT_REQUIRE_READERS'] === '1';

/**
 * Why a suite that needs the readers cannot run here, or null when it can. Under
 * PAYEXPORT_REQUIRE_READERS=1 a missing reader throws: CI must run these suites, never skip them.
 */
export function readersMissing(kind: 'csv' | 'xlsx' | 'both' = 'both'): string | null {
  const reasons: string[] = [];
  if ((kind === 'csv' || kind === 'both') && pythonForCsv() === null) reasons.push('no python3 for the csv module');
  if ((kind === 'xlsx' || kind === 'both') && pythonForXlsx() === null) reasons.push('no python3 with openpyxl (apt-get install python3-openpyxl)');
  if (reasons.length === 0) return null;
  const reason = reasons.join('; ');
  if (REQUIRED) throw new Error(`PAYEXPORT_REQUIRE_READERS=1 but ${reason}`);
  return reason;
}

export interface PythonCsv {
  /** data records, header excluded */
  records: number;
  header: string[];
  rows: string[][];
}

/** Reads `path` with Python's csv module (excel dialect, strict, utf-8-sig). */
export function readCsvWithPython(path: string): PythonCsv {
  const python = pythonForCsv();
  if (python === null) throw new Error('no python3 for the csv module');
  return JSON.parse(execFileSync(python, [READ_CSV, path], { encoding: 'utf8', maxBuffer: MAX_BUFFER })) as PythonCsv;
}

export interface OpenpyxlCell {
  v: string | number | boolean | null;
  /** n numeric, s string, b boolean, d date, f formula, e error; null for an empty cell */
  t: 'n' | 's' | 'b' | 'd' | 'f' | 'e' | null;
  fmt: string;
}

export interface OpenpyxlSheet {
  name: string;
  max_row: number;
  max_column: number;
  freeze_panes: string | null;
  auto_filter: string | null;
  orientation: string | null;
  fit_to_width: number | null;
  fit_to_height: number | null;
  fit_to_page: boolean;
  scale: number | null;
  /** OOXML paperSize: 9 = A4, 1 = Letter */
  paper_size: number | null;
  /** inches */
  margins: { left: number; right: number; top: number; bottom: number };
  /** e.g. `'Payments'!$A:$M` or null */
  print_area: string | string[] | null;
  print_title_rows: string | null;
  /** per column up to max_column; null = the default width */
  column_widths: (number | null)[];
  /** rows after which a manual page break stands */
  row_breaks: number[];
  images: number;
  charts: number;
  /** the charts openpyxl found on the sheet, with the cell ranges each series reads */
  chart_details: OpenpyxlChart[];
  rows?: OpenpyxlCell[][];
}

export interface OpenpyxlChart {
  /** barChart, lineChart, ... */
  type: string;
  title: string | null;
  /** zero-based top-left cell */
  anchor: { col: number; row: number } | null;
  grouping: string | null;
  /** bar charts: col | bar */
  direction: string | null;
  /** formulas such as `'Fee charts'!$B$4:$B$9` */
  series: { name: string | null; categories: string | null; values: string | null }[];
}

/**
 * Reads `path` with openpyxl; cells only when asked (at most `maxRows` rows per sheet when given;
 * `values`: formulas' cached results; `sheets`: the cells of these sheets only, every sheet's
 * properties still come back).
 */
export function readXlsxWithOpenpyxl(path: string, options: { cells?: boolean; maxRows?: number; values?: boolean; sheets?: readonly string[] } = {}): OpenpyxlSheet[] {
  const python = pythonForXlsx();
  if (python === null) throw new Error('no python3 with openpyxl');
  const args = [READ_XLSX, path];
  if (options.cells === true) args.push('--cells');
  if (options.values === true) args.push('--values');
  if (options.maxRows !== undefined) args.push('--max-rows', String(options.maxRows));
  if (options.sheets !== undefined) args.push('--sheets', options.sheets.join(','));
  const parsed = JSON.parse(execFileSync(python, args, { encoding: 'utf8', maxBuffer: MAX_BUFFER })) as { sheets: OpenpyxlSheet[] };
  return parsed.sheets;
}

/** One sheet of what openpyxl read, by name; a missing sheet fails the test with its name. */
export function sheetNamed(sheets: readonly OpenpyxlSheet[], name: string): OpenpyxlSheet {
  const found = sheets.find((s) => s.name === name);
  if (found === undefined) throw new Error(`no sheet ${name}`);
  return found;
}

let sofficeFound: boolean | undefined;

/**
 * Why LibreOffice cannot render workbooks to PNG here, or null when it can: `soffice` must run and
 * its graphic export filter (Debian: libreoffice-draw-nogui beside libreoffice-calc-nogui) must be
 * installed. Under PAYEXPORT_REQUIRE_READERS=1 a missing renderer throws, as for the readers.
 */
export function rendererMissing(): string | null {
  sofficeFound ??= spawnSync('soffice', ['--version'], { stdio: 'ignore', timeout: 60_000 }).status === 0;
  const reason = !sofficeFound
    ? 'no soffice (apt-get install libreoffice-calc-nogui libreoffice-draw-nogui)'
    : !existsSync('/usr/lib/libreoffice/program/libgraphicfilterlo.so') && process.platform === 'linux'
      ? "LibreOffice has no graphic export filter (apt-get install libreoffice-draw-nogui)"
      : null;
  if (reason !== null && REQUIRED) throw new Error(`PAYEXPORT_REQUIRE_READERS=1 but ${reason}`);
  return reason;
}
