/**
 * The workbook's shared cell styles. They are frozen-by-convention objects: exceljs caches a style
 * id per style object (a WeakMap), so reusing the same object per (type, format) keeps styled
 * writing as fast as unstyled writing — a fresh object per cell would re-hash the style every time.
 */
import type { Style } from 'exceljs';

export const TEXT_STYLE: Partial<Style> = {};
export const TEXT_AMOUNT_STYLE: Partial<Style> = { numFmt: '@', alignment: { horizontal: 'right' } };
export const INTEGER_STYLE: Partial<Style> = { numFmt: '#,##0' };
/**
 * Amounts in base units: a negative one in parentheses, as a statement prints it (docs/reports.md
 * "Number formats"); a count stays `#,##0`. `_)` leaves a positive amount room for the parenthesis
 * so a column of both lines up.
 */
export const BASE_STYLE: Partial<Style> = { numFmt: '#,##0_);(#,##0)' };
export const PLAIN_INTEGER_STYLE: Partial<Style> = { numFmt: '0' };
export const DATE_STYLE: Partial<Style> = { numFmt: 'yyyy-mm-dd hh:mm:ss', alignment: { horizontal: 'left' } };
export const DAY_STYLE: Partial<Style> = { numFmt: 'yyyy-mm-dd', alignment: { horizontal: 'left' } };
export const DAY_RE = /^(\d{4})-(\d{2})-(\d{2})$/;
const decimalStyles = new Map<number, Partial<Style>>();

/** An amount's format with `scale` decimals, a negative one in parentheses: `#,##0.00_);(#,##0.00)`. */
export function amountFormat(scale: number): string {
  const digits = scale === 0 ? '#,##0' : `#,##0.${'0'.repeat(scale)}`;
  return `${digits}_);(${digits})`;
}

/** An amount with `scale` decimals (amountFormat); one shared object per scale. */
export function decimalStyle(scale: number): Partial<Style> {
  let style = decimalStyles.get(scale);
  if (style === undefined) {
    style = { numFmt: amountFormat(scale) };
    decimalStyles.set(scale, style);
  }
  return style;
}

export const NUMBER_FORMATS = { integer: INTEGER_STYLE.numFmt, base: BASE_STYLE.numFmt, date: DATE_STYLE.numFmt, day: DAY_STYLE.numFmt } as const;
