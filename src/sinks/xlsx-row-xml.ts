/**
 * A table row as worksheet XML, written straight into exceljs's sheet stream: the bytes exceljs
 * 4.4.0 writes for the same row (row-xform + cell-xform, shared strings off) without building its
 * Row and Cell models and their XmlStream. Those models were most of the XLSX path's CPU time
 * (profile of a 100k-payment report: exceljs 11 s of self time, its garbage a good part of 5 s
 * of GC). Rows with a cell note still go through exceljs, which writes the comments part.
 *
 * Pinned to exceljs internals like xlsx-workbook.ts; `test/unit/sinks/xlsx-row-xml.test.ts`
 * compares the sheet XML of both paths byte for byte, so an upgrade that changes either fails there.
 */
import { createRequire } from 'node:module';
import ExcelJS, { type Style, type Worksheet } from 'exceljs';
import type { XlsxValue } from './render-cells.js';

const require = createRequire(import.meta.url);
/** exceljs's own escaping (drops the control characters XML 1.0 forbids), so the bytes match. */
const { xmlEncode, dateToExcel } = require('exceljs/lib/utils/utils.js') as { xmlEncode(text: string): string; dateToExcel(d: Date, date1904?: boolean): number };

/** The worksheet-writer internals this file relies on (exceljs 4.4.0 lib/stream/xlsx/worksheet-writer.js). */
interface SheetWriterInternals {
  _rowZero: number;
  _rows: unknown[];
  startedData: boolean;
  _writeColumns(): void;
  _writeOpenSheetData(): void;
  stream: { write(text: string): void };
  _workbook: { styles: { addStyleModel(style: Partial<Style>, type: number): number } };
}

const { Number: NUMBER, String: STRING, Boolean: BOOLEAN, Null: NULL, Date: DATE } = ExcelJS.ValueType;

export function assertRowXmlInternals(sheet: Worksheet): void {
  const s = sheet as unknown as Partial<SheetWriterInternals>;
  const ok =
    typeof s._rowZero === 'number' &&
    Array.isArray(s._rows) &&
    typeof s.startedData === 'boolean' &&
    typeof s._writeColumns === 'function' &&
    typeof s._writeOpenSheetData === 'function' &&
    typeof s.stream?.write === 'function' &&
    typeof s._workbook?.styles?.addStyleModel === 'function';
  if (!ok) throw new Error('exceljs internals changed: the worksheet writer lacks what xlsx-row-xml.ts writes through');
}

/** A..Z, AA.. for a 1-based column number. */
export function columnLetter(column: number): string {
  let n = column;
  let letters = '';
  while (n > 0) {
    const rem = (n - 1) % 26;
    letters = String.fromCharCode(65 + rem) + letters;
    n = Math.floor((n - 1) / 26);
  }
  return letters;
}

export class RowXmlWriter {
  private readonly sheet: SheetWriterInternals;
  private readonly letters: string[];
  private readonly spans: string;
  /** style object → cell type → style id; styles are shared objects, so this stays tiny */
  private readonly styleIds = new Map<Partial<Style>, Map<number, number>>();

  constructor(sheet: Worksheet, width: number) {
    assertRowXmlInternals(sheet);
    this.sheet = sheet as unknown as SheetWriterInternals;
    this.letters = Array.from({ length: width }, (_, i) => columnLetter(i + 1));
    this.spans = `1:${width}`;
  }

  /** Appends the row as the sheet's next row and returns its number. */
  write(values: readonly XlsxValue[], styles: readonly Partial<Style>[]): number {
    const sheet = this.sheet;
    if (sheet._rows.length > 0) throw new Error('xlsx-row-xml: exceljs rows are still uncommitted');
    if (!sheet.startedData) {
      sheet._writeColumns();
      sheet._writeOpenSheetData();
      sheet.startedData = true;
    }
    const number = sheet._rowZero;
    sheet._rowZero = number + 1;
    let xml = `<row r="${number}" spans="${this.spans}" x14ac:dyDescent="0.25">`;
    for (let i = 0; i < this.letters.length; i++) {
      const value = values[i] ?? null;
      const type = value === null ? NULL : typeof value === 'number' ? NUMBER : typeof value === 'boolean' ? BOOLEAN : value instanceof Date ? DATE : STRING;
      const styleId = this.styleId(styles[i] ?? {}, type);
      if (type === NULL && !styleId) continue;
      xml += `<c r="${this.letters[i]}${number}"`;
      if (styleId) xml += ` s="${styleId}"`;
      if (type === NULL) xml += '/>';
      else if (type === NUMBER) xml += `><v>${xmlEncode(String(value))}</v></c>`;
      else if (type === BOOLEAN) xml += ` t="b"><v>${value ? '1' : '0'}</v></c>`;
      // the sheet writer passes no date1904 option: 1900 date system, as exceljs writes it
      else if (type === DATE) xml += `><v>${xmlEncode(String(dateToExcel(value as Date)))}</v></c>`;
      else xml += ` t="str"><v>${xmlEncode(String(value))}</v></c>`;
    }
    sheet.stream.write(`${xml}</row>`);
    return number;
  }

  private styleId(style: Partial<Style>, type: number): number {
    let byType = this.styleIds.get(style);
    if (byType === undefined) {
      byType = new Map();
      this.styleIds.set(style, byType);
    }
    let id = byType.get(type);
    if (id === undefined) {
      id = this.sheet._workbook.styles.addStyleModel(style, type);
      byType.set(type, id);
    }
    return id;
  }
}
