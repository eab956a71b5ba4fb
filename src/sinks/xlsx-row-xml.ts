/**
 * A table row as worksheet XML, written straight into exceljs's sheet stream: the bytes exceljs
 * 4.4.0 writes for the same row (row-xform + cell-xform, shared strings off) without building its
 * Row and Cell models and their XmlStream, which were most of the XLSX path's CPU time and garbage. Rows with a cell note still go through exceljs, which writes the comments part.
 *
 * Written through exceljs's internals (platform/exceljs-internals.ts); `test/unit/sinks/xlsx-row-xml.test.ts`
 * compares the sheet XML of both paths byte for byte, so an upgrade that changes either fails there.
 */
import type { Style, Worksheet } from 'exceljs';
import { dateToExcel, rowWriterInternals, ValueType, xmlEncode, type SheetWriterInternals } from '../platform/exceljs-internals.js';
import type { XlsxValue } from './render-cells.js';

const { Number: NUMBER, String: STRING, Boolean: BOOLEAN, Null: NULL, Date: DATE } = ValueType;

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

const NO_STYLE: Partial<Style> = {};

/**
 * Rows are handed to the sheet's stream in runs of about this many characters: exceljs's StreamBuf
 * turns every write into a Buffer of its own before copying it into its 64 KB batch, so one write
 * per row was one Buffer per row, a good share of an export's garbage.
 */
const RUN_CHARS = 16 * 1024;

export class RowXmlWriter {
  private readonly sheet: SheetWriterInternals;
  /** `<c r="A` … per column: only the row number differs from row to row */
  private readonly cellOpen: string[];
  private readonly spans: string;
  /** style object → cell type → style id; styles are shared objects, so this stays tiny */
  private readonly styleIds = new Map<Partial<Style>, Map<number, number>>();
  /**
   * Per column, the style and type of the last cell written there and what follows the cell
   * reference for them (`" s="7"` or `"`): a column's cells mostly repeat, so two Map lookups and
   * a number-to-text per cell become two comparisons.
   */
  private readonly slotStyle: (Partial<Style> | null)[];
  private readonly slotType: number[];
  private readonly slotAttr: string[];
  /** rows written here and not yet handed to the sheet's stream (`flush`) */
  private pending = '';

  constructor(sheet: Worksheet, width: number) {
    this.sheet = rowWriterInternals(sheet);
    this.cellOpen = Array.from({ length: width }, (_, i) => `<c r="${columnLetter(i + 1)}`);
    this.spans = `1:${width}`;
    this.slotStyle = new Array<Partial<Style> | null>(width).fill(null);
    this.slotType = new Array<number>(width).fill(-1);
    this.slotAttr = new Array<string>(width).fill('');
  }

  /**
   * Appends the row as the sheet's next row and returns its number. The row's XML may wait here
   * (up to RUN_CHARS): whoever writes to the sheet by another way — exceljs's own rows, the sheet's
   * commit — calls `flush` first.
   */
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
    const r = String(number);
    let xml = `<row r="${r}" spans="${this.spans}" x14ac:dyDescent="0.25">`;
    const width = this.cellOpen.length;
    for (let i = 0; i < width; i++) {
      const value = values[i] ?? null;
      const type = value === null ? NULL : typeof value === 'number' ? NUMBER : typeof value === 'boolean' ? BOOLEAN : value instanceof Date ? DATE : STRING;
      const style = styles[i] ?? NO_STYLE;
      let attr = this.slotAttr[i] as string;
      if (style !== this.slotStyle[i] || type !== this.slotType[i]) {
        const id = this.styleId(style, type);
        attr = id ? `" s="${id}"` : '"';
        this.slotStyle[i] = style;
        this.slotType[i] = type;
        this.slotAttr[i] = attr;
      }
      // a null cell without a style (attr `"`) is not written at all, as exceljs does
      if (type === NULL) {
        if (attr.length > 1) xml += `${this.cellOpen[i] as string}${r}${attr}/>`;
      }
      // the text of a number (digits, `.`, `-`, `e+`, NaN, Infinity) has nothing xmlEncode changes
      else if (type === NUMBER) xml += `${this.cellOpen[i] as string}${r}${attr}><v>${value as number}</v></c>`;
      else if (type === BOOLEAN) xml += `${this.cellOpen[i] as string}${r}${attr} t="b"><v>${value ? '1' : '0'}</v></c>`;
      // the sheet writer passes no date1904 option: 1900 date system, as exceljs writes it
      else if (type === DATE) xml += `${this.cellOpen[i] as string}${r}${attr}><v>${dateToExcel(value as Date)}</v></c>`;
      else xml += `${this.cellOpen[i] as string}${r}${attr} t="str"><v>${xmlEncode(value as string)}</v></c>`;
    }
    this.pending += `${xml}</row>`;
    if (this.pending.length >= RUN_CHARS) this.flush();
    return number;
  }

  /** Hands the rows written so far to the sheet's stream, before anything else writes there. */
  flush(): void {
    if (this.pending.length === 0) return;
    const text = this.pending;
    this.pending = '';
    this.sheet.stream.write(text);
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
