/**
 * Compiles a TableSpec into two row renderers: CSV fields (strings) and XLSX cells (value + a
 * shared style object, cell-styles.ts). Each column is compiled once by its type (column-cells.ts);
 * a row is then a loop over the columns' renderers into one reused buffer.
 */
import type { Style } from 'exceljs';
import { tableColumns, type ColumnSpec, type TableSpec } from '../model/column-spec.js';
import { TEXT_STYLE } from './cell-styles.js';
import { compileColumn, type CsvCell, type XlsxCell } from './column-cells.js';
import type { RenderContext, XlsxCellOut, XlsxRenderStats, XlsxValue } from './render-types.js';

export { amountFormat, decimalStyle, NUMBER_FORMATS } from './cell-styles.js';

export type { RenderContext, XlsxCellOut, XlsxRenderStats, XlsxValue } from './render-types.js';

export interface CompiledTable<Row> {
  readonly spec: TableSpec<Row>;
  /** the columns written: the spec's, with `wallet_name` beside `wallet_id` (column-spec.ts tableColumns) */
  readonly columns: readonly ColumnSpec<Row>[];
  readonly headers: readonly string[];
  /** what the getters were compiled with (subtotal rows read the same values) */
  readonly ctx: RenderContext;
  csvRow(row: Row): string[];
  /** fills and returns a reused buffer: copy before keeping it */
  xlsxRow(row: Row): XlsxCellOut;
  readonly xlsxStats: XlsxRenderStats;
}

export function compileTable<Row>(spec: TableSpec<Row>, ctx: RenderContext): CompiledTable<Row> {
  const xlsxStats: XlsxRenderStats = { replacedControlChars: 0, truncatedTexts: 0, amountsAsText: 0, displayAmountsRounded: 0 };
  const columns = tableColumns(spec);
  const compiled = columns.map((col) => compileColumn(col, ctx, xlsxStats));
  const csvCells = compiled.map((c) => c.csv);
  const xlsxCells = compiled.map((c) => c.xlsx);
  const width = compiled.length;
  const buffer: XlsxCellOut = { values: new Array<XlsxValue>(width).fill(null), styles: new Array<Partial<Style>>(width).fill(TEXT_STYLE), textAmountColumns: [] };
  return {
    spec,
    columns,
    headers: columns.map((c) => c.name),
    ctx,
    xlsxStats,
    csvRow(row: Row): string[] {
      const out = new Array<string>(width);
      for (let i = 0; i < width; i++) out[i] = (csvCells[i] as CsvCell<Row>)(row);
      return out;
    },
    xlsxRow(row: Row): XlsxCellOut {
      buffer.textAmountColumns.length = 0;
      for (let i = 0; i < width; i++) (xlsxCells[i] as XlsxCell<Row>)(row, buffer, i);
      return buffer;
    },
  };
}
