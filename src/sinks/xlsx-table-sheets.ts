/**
 * One report table as XLSX sheet(s): header row (bold, frozen, autofilter), column widths and per-
 * cell number formats from the column spec. A table longer than Excel's 1,048,576 rows continues
 * in "Payments (2)", "Payments (3)", ... each with its own header (`maxRowsPerSheet` is injectable
 * so tests can use a small limit).
 */
import { columnLetter, RowXmlWriter } from './xlsx-row-xml.js';
import type { Style, Worksheet } from 'exceljs';
import { EXCEL_MAX_ROWS } from './cells.js';
import type { ColumnType } from '../model/column-spec.js';
import type { CompiledTable } from './render-cells.js';
import type { StreamingWorkbook } from './xlsx-workbook.js';
import { FAULTS_ARMED, faultPoint } from '../util/fault-points.js';
import { printSetup } from './print-fit.js';
import { SubtotalRows, type ExtraRow } from './xlsx-subtotals.js';

export interface SheetResult {
  name: string;
  /** rows in the sheet, header included (what a reader sees) */
  rows: number;
}

export const HEADER_STYLE: Partial<Style> = {
  font: { name: 'Calibri', family: 2, size: 11, bold: true, color: { argb: 'FF1F2937' } },
  fill: { type: 'pattern', pattern: 'solid', fgColor: { argb: 'FFE5E7EB' } },
  border: { bottom: { style: 'thin', color: { argb: 'FF9CA3AF' } } },
  alignment: { vertical: 'middle' },
};

const DEFAULT_WIDTH: Readonly<Record<ColumnType, number>> = {
  id: 38,
  text: 30,
  enum: 14,
  currency: 10,
  list: 30,
  json: 30,
  instant: 20,
  instant_utc: 29,
  date: 11,
  base: 18,
  display: 20,
  count: 10,
  bps: 8,
  decimal: 16,
  bool: 8,
};

/** Notes explaining an amount kept as text, per sheet; past this the Definitions sheet explains. */
const MAX_NOTES_PER_SHEET = 200;
const TEXT_AMOUNT_NOTE = 'Exact amount kept as text: Excel holds only 15 significant digits, so as a number it would be rounded. The display column beside it is a number you can sum; the CSV has the exact digits.';

/**
 * Sheet options shared by every table sheet: the header row and the first column frozen (the row's
 * anchor stays in view while scrolling right); printed landscape on A4, as many pages across as
 * 8 pt text needs for the printed columns' widths (print-fit.ts) and as many down as the rows need,
 * the header repeated on every page. The print area ends at the last printed column, so a long text
 * in it is cut at the page's edge instead of widening the printout.
 */
export function tableSheetOptions(printedWidths: readonly number[]): Parameters<StreamingWorkbook['addSheet']>[1] {
  return {
    views: [{ state: 'frozen', xSplit: 1, ySplit: 1, topLeftCell: 'B2', activeCell: 'B2' }],
    pageSetup: printSetup(printedWidths, { orientation: 'landscape', titleRows: '1:1', printArea: `A:${columnLetter(printedWidths.length)}` }),
  };
}

/**
 * How many leading columns a sheet prints: its spec's `printColumns` (the sheet shows them first,
 * render-cells.ts sheetOrder), else all of them.
 */
export function printedColumns(names: readonly string[], printColumns: readonly string[] | undefined): number {
  return printColumns === undefined ? names.length : printColumns.length;
}

/** each column's width in the sheet: its spec's, else its type's, never narrower than its header */
export function columnWidths(columns: readonly { readonly name: string; readonly type: ColumnType; readonly width?: number }[]): number[] {
  return columns.map((c) => Math.max(c.width ?? DEFAULT_WIDTH[c.type], c.name.length + 3));
}

export class XlsxTableSheets<Row> {
  private sheet: Worksheet | null = null;
  private rowsInSheet = 0;
  private notesInSheet = 0;
  private readonly results: SheetResult[] = [];
  private dataRows = 0;
  private rowXml: RowXmlWriter | null = null;
  private readonly subtotals: SubtotalRows<Row> | null;

  constructor(
    private readonly workbook: StreamingWorkbook,
    private readonly table: CompiledTable<Row>,
    private readonly maxRowsPerSheet: number = EXCEL_MAX_ROWS,
    /** false: every row through exceljs's Row model (the reference the direct XML is tested against) */
    private readonly directRows = true,
  ) {
    if (!Number.isInteger(maxRowsPerSheet) || maxRowsPerSheet < 2 || maxRowsPerSheet > EXCEL_MAX_ROWS) {
      throw new RangeError(`maxRowsPerSheet must be an integer in [2, ${EXCEL_MAX_ROWS}]`);
    }
    const spec = table.spec.subtotals;
    this.subtotals = spec === undefined ? null : new SubtotalRows(spec, table.columns, table.ctx);
  }

  private openSheet(): Worksheet {
    const n = this.results.length + 1;
    const name = n === 1 ? this.table.spec.sheet : `${this.table.spec.sheet} (${n})`;
    const widths = columnWidths(this.table.columns);
    const printed = printedColumns(this.table.headers, this.table.spec.printColumns);
    const sheet = this.workbook.addSheet(name, tableSheetOptions(widths.slice(0, printed)));
    sheet.columns = this.table.columns.map((c, i) => ({ key: c.name, width: widths[i] as number }));
    const header = sheet.addRow([...this.table.headers]);
    header.eachCell((cell) => {
      cell.style = HEADER_STYLE;
    });
    header.commit();
    this.rowXml = new RowXmlWriter(sheet, this.table.headers.length);
    this.subtotals?.continued();
    this.sheet = sheet;
    this.rowsInSheet = 1;
    this.notesInSheet = 0;
    this.results.push({ name, rows: 1 });
    return sheet;
  }

  private async closeSheet(): Promise<void> {
    const sheet = this.sheet;
    if (sheet === null) return;
    const width = this.table.headers.length;
    sheet.autoFilter = `A1:${columnLetter(width)}${this.rowsInSheet}`;
    (this.results[this.results.length - 1] as SheetResult).rows = this.rowsInSheet;
    this.rowXml?.flush();
    this.sheet = null;
    await this.workbook.commitSheet(sheet);
  }

  write(row: Row): Promise<void> | undefined {
    // a row of another group: the finished group's subtotal row comes first
    if (this.subtotals?.closes(row) === true) {
      const pending = this.putSubtotal();
      if (pending !== undefined) return pending.then(() => this.write(row));
    }
    if (this.sheet !== null && this.rowsInSheet >= this.maxRowsPerSheet) {
      return this.closeSheet().then(() => this.write(row));
    }
    const sheet = this.sheet ?? this.openSheet();
    this.subtotals?.add(row, this.rowsInSheet + 1);
    const out = this.table.xlsxRow(row);
    const needsNote = out.textAmountColumns.length > 0 && this.notesInSheet < MAX_NOTES_PER_SHEET;
    if (!needsNote && this.directRows) {
      (this.rowXml as RowXmlWriter).write(out.values, out.styles);
      return this.rowWritten(sheet);
    }
    // exceljs writes this row itself: the direct rows before it go first
    this.rowXml?.flush();
    const r = sheet.addRow(out.values);
    for (let i = 0; i < out.styles.length; i++) r.getCell(i + 1).style = out.styles[i] as Partial<Style>;
    if (out.textAmountColumns.length > 0 && this.notesInSheet < MAX_NOTES_PER_SHEET) {
      for (const index of out.textAmountColumns) r.getCell(index + 1).note = TEXT_AMOUNT_NOTE;
      this.notesInSheet += 1;
    }
    r.commit();
    return this.rowWritten(sheet);
  }

  private rowWritten(sheet: Worksheet): Promise<void> | undefined {
    this.rowsInSheet += 1;
    this.dataRows += 1;
    if (FAULTS_ARMED) faultPoint('report:xlsx', { rows: this.dataRows, sheet: this.table.spec.sheet });
    return this.workbook.pace(sheet);
  }

  /** The current group's subtotal row (xlsx-subtotals.ts), on a new sheet when this one is full. */
  private putSubtotal(): Promise<void> | undefined {
    if (this.sheet !== null && this.rowsInSheet >= this.maxRowsPerSheet) return this.closeSheet().then(() => this.putSubtotal());
    const sheet = this.sheet ?? this.openSheet();
    const row = this.subtotals?.subtotal(this.rowsInSheet + 1) ?? null;
    return row === null ? undefined : this.putExtra(sheet, row);
  }

  private putExtra(sheet: Worksheet, row: ExtraRow): Promise<void> | undefined {
    this.rowXml?.flush();
    const r = sheet.addRow(row.values);
    for (let i = 0; i < row.styles.length; i++) r.getCell(i + 1).style = row.styles[i] as Partial<Style>;
    r.commit();
    this.rowsInSheet += 1;
    return this.workbook.pace(sheet);
  }

  /** Ends the table (an empty table still gets its header sheet), after the last subtotal and the totals. */
  async close(): Promise<{ rows: number; sheets: SheetResult[] }> {
    if (this.sheet === null && this.results.length === 0) this.openSheet();
    if (this.subtotals !== null) {
      await this.putSubtotal();
      // the totals sum the marked subtotal rows of this sheet; a table spread over sheets gets values only
      for (const row of this.subtotals.totalRows(this.results.length === 1 ? this.rowsInSheet : null)) {
        if (this.rowsInSheet >= this.maxRowsPerSheet) await this.closeSheet();
        await this.putExtra(this.sheet ?? this.openSheet(), row);
      }
    }
    await this.closeSheet();
    return { rows: this.dataRows, sheets: this.results.map((s) => ({ ...s })) };
  }
}
