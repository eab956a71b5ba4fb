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

/**
 * The table's columns compiled once. `sheet` order puts the spec's `printColumns` first (what a
 * person prints), then the rest in the spec's order; the CSV is always in the spec's order.
 */
export function compileTable<Row>(spec: TableSpec<Row>, ctx: RenderContext, order: 'csv' | 'sheet' = 'csv'): CompiledTable<Row> {
  const xlsxStats: XlsxRenderStats = { replacedControlChars: 0, truncatedTexts: 0, amountsAsText: 0, displayAmountsRounded: 0 };
  const columns = order === 'sheet' ? sheetOrder(tableColumns(spec), spec.printColumns ?? []) : tableColumns(spec);
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

/** the printed columns first, in their order, then the others in the spec's (a name the table lacks is a bug in its spec) */
export function sheetOrder<Column extends { readonly name: string }>(columns: readonly Column[], printed: readonly string[]): Column[] {
  const first = printed.map((name) => {
    const column = columns.find((c) => c.name === name);
    if (column === undefined) throw new Error(`printColumns names ${name}, which the table does not have`);
    return column;
  });
  return [...first, ...columns.filter((c) => !printed.includes(c.name))];
}
