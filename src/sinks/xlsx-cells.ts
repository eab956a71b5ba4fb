/**
 * Cell helpers for the hand-laid sheets (Overview, Definitions): the same safety rules as the
 * table sheets (`cells.ts`), shared style objects, and amounts shown in display units.
 */
import type { Row, Style, Worksheet } from 'exceljs';
import { formatBase } from '../money/format.js';
import { displayScale } from '../money/units.js';
import { fitsExcelNumber, neutralizeFormula, xlsxText } from './cells.js';
import type { SpecContext } from '../model/column-spec.js';
import { decimalStyle } from './render-cells.js';
import { HEADER_STYLE } from './xlsx-table-sheets.js';
import { LINE_PT, wrappedLines } from './print-fit.js';

/** A formula over the sheet's own cells with its result cached (a reader that does not recalculate shows it). */
export type Formula = { formula: string; result: number };
export type Cell = { value: string | number | boolean | null | Formula; style: Partial<Style> };

export const TITLE_STYLE: Partial<Style> = { font: { name: 'Calibri', family: 2, bold: true, size: 16, color: { argb: 'FF111827' } } };
export const SUBTITLE_STYLE: Partial<Style> = { font: { name: 'Calibri', family: 2, size: 11, color: { argb: 'FF6B7280' } } };
export const SECTION_STYLE: Partial<Style> = {
  font: { name: 'Calibri', family: 2, bold: true, size: 12, color: { argb: 'FF1E3A8A' } },
  border: { bottom: { style: 'medium', color: { argb: 'FF1E3A8A' } } },
};
export const PLAIN_STYLE: Partial<Style> = {};
export const BOLD_STYLE: Partial<Style> = { font: { name: 'Calibri', family: 2, size: 11, bold: true } };
export const COUNT_STYLE: Partial<Style> = { numFmt: '#,##0' };
export const PASS_STYLE: Partial<Style> = {
  font: { name: 'Calibri', family: 2, size: 11, bold: true, color: { argb: 'FF006100' } },
  fill: { type: 'pattern', pattern: 'solid', fgColor: { argb: 'FFC6EFCE' } },
  alignment: { horizontal: 'center' },
};
export const FAIL_STYLE: Partial<Style> = {
  font: { name: 'Calibri', family: 2, size: 11, bold: true, color: { argb: 'FF9C0006' } },
  fill: { type: 'pattern', pattern: 'solid', fgColor: { argb: 'FFFFC7CE' } },
  alignment: { horizontal: 'center' },
};
export const ALERT_STYLE: Partial<Style> = { font: { name: 'Calibri', family: 2, size: 11, bold: true, color: { argb: 'FF9C0006' } } };
export const GOOD_STYLE: Partial<Style> = { font: { name: 'Calibri', family: 2, size: 11, bold: true, color: { argb: 'FF006100' } } };
export const INDENT_STYLE: Partial<Style> = { alignment: { horizontal: 'left', indent: 1 } };
export const HEADER_INDENT_STYLE: Partial<Style> = { ...HEADER_STYLE, alignment: { ...HEADER_STYLE.alignment, horizontal: 'left', indent: 1 } };
export const HEADER_RIGHT_STYLE: Partial<Style> = { ...HEADER_STYLE, alignment: { ...HEADER_STYLE.alignment, horizontal: 'right' } };
const TEXT_AMOUNT_STYLE: Partial<Style> = { numFmt: '@', alignment: { horizontal: 'right' } };

export { HEADER_STYLE };

/** A safe text cell (formula-neutralized, XML-safe). */
export function textCell(text: string | null, style: Partial<Style> = PLAIN_STYLE): Cell {
  return { value: text === null ? null : xlsxText(neutralizeFormula(text)).text, style };
}

export function countCell(n: number | bigint): Cell {
  return typeof n === 'bigint' && !fitsExcelNumber(n) ? { value: n.toString(), style: TEXT_AMOUNT_STYLE } : { value: Number(n), style: COUNT_STYLE };
}

/**
 * An amount in display units: always a number with thousands separators and the currency's
 * decimals, so it can be summed and compared; past 15 significant digits Excel shows it rounded
 * (the exact figures are in manifest.json and the CSV files).
 */
export function amountCell(base: bigint, currency: string, ctx: SpecContext): Cell {
  const scale = displayScale(currency, ctx.assetDecimals) ?? 0;
  return { value: Number(formatBase(base, scale)), style: decimalStyle(scale) };
}

/**
 * Appends one row of cells and commits it; returns its row number. `merges`: column spans
 * (1-based, inclusive) merged into one cell each, before the row is committed (exceljs's stream
 * writer cannot merge cells of a committed row).
 */
export function putRow(sheet: Worksheet, cells: readonly (Cell | null)[], height?: number, merges: readonly (readonly [number, number])[] = []): number {
  const row: Row = sheet.addRow(cells.map((c) => (c === null ? null : c.value)));
  cells.forEach((c, i) => {
    if (c !== null) row.getCell(i + 1).style = c.style;
  });
  if (height !== undefined) row.height = height;
  for (const [from, to] of merges) sheet.mergeCells(row.number, from, row.number, to);
  row.commit();
  return row.number;
}

const wrapStyles = new WeakMap<Partial<Style>, Partial<Style>>();
const topStyles = new WeakMap<Partial<Style>, Partial<Style>>();

/** The style set at the top of its cell (one shared object per style): the cells of a row taller than a line line up with its wrapped text. */
export function topAligned(style: Partial<Style>): Partial<Style> {
  let out = topStyles.get(style);
  if (out === undefined) {
    out = { ...style, alignment: { ...style.alignment, vertical: 'top' } };
    topStyles.set(style, out);
  }
  return out;
}

/** The style with its text wrapped and set at the top of the cell (one shared object per style). */
export function wrapped(style: Partial<Style>): Partial<Style> {
  let out = wrapStyles.get(style);
  if (out === undefined) {
    out = { ...style, alignment: { ...style.alignment, wrapText: true, vertical: 'top' } };
    wrapStyles.set(style, out);
  }
  return out;
}

/**
 * A text in one cell merged across the columns from `fromColumn` to the last of `widths`, wrapped,
 * its row as tall as the text needs (print-fit.ts): a long line neither runs past the printed
 * columns nor widens the printout.
 */
export function putWrapped(sheet: Worksheet, text: string, widths: readonly number[], style: Partial<Style> = PLAIN_STYLE, fromColumn = 1, linePt = LINE_PT): number {
  const width = widths.slice(fromColumn - 1).reduce((a, b) => a + b, 0);
  const cells: (Cell | null)[] = Array.from({ length: fromColumn - 1 }, () => null);
  cells.push(textCell(text, wrapped(style)));
  return putRow(sheet, cells, wrappedLines(text, width) * linePt, [[fromColumn, widths.length]]);
}
