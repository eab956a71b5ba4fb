/**
 * Cell helpers for the hand-laid sheets (Overview, Definitions): the same safety rules as the
 * table sheets (`cells.ts`), shared style objects, and amounts shown in display units.
 */
import type { Row, Style, Worksheet } from 'exceljs';
import { formatBase } from '../money/format.js';
import { displayScale } from '../money/units.js';
import { fitsExcelNumber, neutralizeFormula, xlsxText } from './cells.js';
import type { SpecContext } from './column-spec.js';
import { decimalStyle } from './render-cells.js';
import { HEADER_STYLE } from './xlsx-table-sheets.js';

export type Cell = { value: string | number | boolean | null; style: Partial<Style> };

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

/** Appends one row of cells and commits it; returns its row number. */
export function putRow(sheet: Worksheet, cells: readonly (Cell | null)[], height?: number): number {
  const row: Row = sheet.addRow(cells.map((c) => (c === null ? null : c.value)));
  cells.forEach((c, i) => {
    if (c !== null) row.getCell(i + 1).style = c.style;
  });
  if (height !== undefined) row.height = height;
  row.commit();
  return row.number;
}
