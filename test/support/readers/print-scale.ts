/**
 * What a sheet's page setup does to its text on paper, worked out from what openpyxl reads of the
 * file (column widths, print area, margins, fit-to-pages) — not from src/sinks/print-fit.ts, whose
 * promise it checks: with the sheet fitted to `fit_to_width` pages across, the largest scale at
 * which its printed columns fit that many pages (a column is never split), on A4 and on Letter.
 *
 * LibreOffice lays a column of width w out at 7·w points when neither Calibri nor Carlito is
 * installed (measured on this renderer: width 20 → 140 pt, DejaVu Sans standing in); Excel at about
 * 5.25·w. The wider layout is the one that shrinks the text, so it is the one used here. And it
 * fits a sheet at a scale about 2 % under what the page allows (measured: 144 units on Letter
 * landscape printed at 72 % where 74 % fits), so the page is taken as 96 % of its printable width.
 */
import type { OpenpyxlSheet } from './readers.js';

export const PAPER_PT = { A4: { width: 595.28, height: 841.89 }, Letter: { width: 612, height: 792 } } as const;
export type Paper = keyof typeof PAPER_PT;
const POINTS_PER_WIDTH = 7;
const FIT_SLACK = 0.96;
/** Excel's default column width when a file sets none */
const DEFAULT_WIDTH = 8.43;
/** the body text of the workbook: Calibri 11 */
export const BODY_PT = 11;

function columnNumber(letters: string): number {
  return [...letters.toUpperCase()].reduce((n, c) => n * 26 + (c.charCodeAt(0) - 64), 0);
}

/** The widths of the columns the sheet prints: its print area's, or all of them. */
export function printedWidths(sheet: OpenpyxlSheet): number[] {
  const widths = sheet.column_widths.map((w) => w ?? DEFAULT_WIDTH);
  const area = Array.isArray(sheet.print_area) ? sheet.print_area[0] : sheet.print_area;
  const match = area === null || area === undefined ? null : /\$?([A-Z]+)\$?\d*:\$?([A-Z]+)\$?\d*$/.exec(area);
  if (match === null) return widths;
  return widths.slice(columnNumber(match[1] as string) - 1, columnNumber(match[2] as string));
}

function pagesAcross(widths: readonly number[], capacityPt: number, scale: number): number {
  let pages = 1;
  let used = 0;
  for (const w of widths) {
    const pt = w * POINTS_PER_WIDTH * scale;
    if (used > 0 && used + pt > capacityPt) {
      pages += 1;
      used = 0;
    }
    used += pt;
  }
  return pages;
}

/** The scale the sheet prints at on `paper`: its fixed scale, or the largest (in whole percent, as spreadsheets pick it) that fits its pages across. */
export function printScale(sheet: OpenpyxlSheet, paper: Paper): number {
  if (!sheet.fit_to_page) return (sheet.scale ?? 100) / 100;
  const size = PAPER_PT[paper];
  const across = sheet.orientation === 'landscape' ? size.height : size.width;
  const capacity = (across - (sheet.margins.left + sheet.margins.right) * 72) * FIT_SLACK;
  const pages = sheet.fit_to_width === null || sheet.fit_to_width === 0 ? Number.POSITIVE_INFINITY : sheet.fit_to_width;
  const widths = printedWidths(sheet);
  for (let percent = 100; percent >= 1; percent--) {
    if (pagesAcross(widths, capacity, percent / 100) <= pages) return percent / 100;
  }
  return 0.01;
}
