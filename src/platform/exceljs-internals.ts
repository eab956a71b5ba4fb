/**
 * Every part of exceljs that is not its public API and that payexport relies on, behind one door:
 * the files loaded directly, and the private fields of its streaming writers. The XLSX writer
 * (sinks/xlsx-workbook.ts, sinks/xlsx-row-xml.ts) reaches exceljs's internals only through here.
 *
 * Why internals at all: exceljs's public streaming writer neither bounds the XML waiting for the
 * compressor, nor writes the same bytes twice (entry dates are "now"), nor lets the first tab be
 * written last, nor writes charts; and its row and cell models were most of an export's CPU. Each
 * use is explained where it is made. Why files of its own: exceljs's index also loads the workbook
 * reader, whose unzipper pulls hundreds of polyfill modules at every start of a job.
 *
 * Written against exceljs EXCELJS_VERSION (an exact pin in package.json).
 * test/unit/platform/exceljs-internals.test.ts fails on any other version and on a writer that lacks
 * a field used here; test/unit/sinks/xlsx-row-xml.test.ts compares the bytes of both row paths.
 */
import { createRequire } from 'node:module';
import type { Readable } from 'node:stream';
import type ExcelJS from 'exceljs';
import type { Style, Worksheet } from 'exceljs';

export const EXCELJS_VERSION = '4.4.0';

const require = createRequire(import.meta.url);

/** The streaming workbook writer alone, from its own file. */
export const WorkbookWriter = require('exceljs/lib/stream/xlsx/workbook-writer.js') as typeof ExcelJS.stream.xlsx.WorkbookWriter;

/** exceljs's own escaping (drops the control characters XML 1.0 forbids) and date serial, so the bytes match. */
export const { xmlEncode, dateToExcel } = require('exceljs/lib/utils/utils.js') as { xmlEncode(text: string): string; dateToExcel(d: Date, date1904?: boolean): number };

/** The cell value types, from their own file. */
export const { ValueType } = require('exceljs/lib/doc/enums.js') as { ValueType: typeof ExcelJS.ValueType };

/** The archiver exceljs assigns to the workbook writer's `zip` in its constructor. */
export interface ZipArchive {
  append(source: unknown, data: { name: string; date?: Date }): unknown;
  on(event: 'error', listener: (error: unknown) => void): unknown;
}

/** A worksheet's StreamBuf pipes into archiver-utils' PassThrough (readable-stream 2: its state is read as it stores it). */
export type SheetPipe = Readable & { _writableState?: { length: number; ending?: boolean; finished?: boolean } };

/** The stream WorksheetWriter's parts that add a drawing (sinks/xlsx-workbook.ts, charts). */
export interface SheetDrawingInternals {
  _sheetRelsWriter?: { addRelationship(rel: { Target: string; Type: string }): string };
  _writeLegacyData?: () => void;
  _write?: (text: string) => void;
  committed?: boolean;
}

/** The stream WorksheetWriter's parts that write rows straight into its stream (sinks/xlsx-row-xml.ts). */
export interface SheetWriterInternals {
  _rowZero: number;
  _rows: unknown[];
  startedData: boolean;
  _writeColumns(): void;
  _writeOpenSheetData(): void;
  stream: { write(text: string): void };
  _workbook: { styles: { addStyleModel(style: Partial<Style>, type: number): number } };
}

/** The worksheet's pipe to the compressor: worksheet.stream (StreamBuf) → pipes[0]. */
export function sheetPipe(sheet: Worksheet): SheetPipe {
  const pipe = (sheet as unknown as { stream: { pipes?: SheetPipe[] } }).stream.pipes?.[0];
  if (pipe === undefined || pipe._writableState === undefined) throw new Error('exceljs internals changed: no writable state on the worksheet pipe (see platform/exceljs-internals.ts)');
  return pipe;
}

/** The drawing parts of a sheet not yet committed. */
export function drawingInternals(sheet: Worksheet): Required<SheetDrawingInternals> {
  const internals = sheet as unknown as SheetDrawingInternals;
  if (internals._sheetRelsWriter === undefined || typeof internals._writeLegacyData !== 'function' || typeof internals._write !== 'function' || internals.committed === true) {
    throw new Error('exceljs internals changed or the sheet is committed: cannot add a drawing (see platform/exceljs-internals.ts)');
  }
  return internals as Required<SheetDrawingInternals>;
}

/** The row-writing parts of a sheet. */
export function rowWriterInternals(sheet: Worksheet): SheetWriterInternals {
  const s = sheet as unknown as Partial<SheetWriterInternals>;
  const ok =
    typeof s._rowZero === 'number' &&
    Array.isArray(s._rows) &&
    typeof s.startedData === 'boolean' &&
    typeof s._writeColumns === 'function' &&
    typeof s._writeOpenSheetData === 'function' &&
    typeof s.stream?.write === 'function' &&
    typeof s._workbook?.styles?.addStyleModel === 'function';
  if (!ok) throw new Error('exceljs internals changed: the worksheet writer lacks what xlsx-row-xml.ts writes through (see platform/exceljs-internals.ts)');
  return s as SheetWriterInternals;
}
