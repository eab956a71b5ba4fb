/**
 * Printing legibly (docs/reports.md#printing-8-pt-or-more-on-a4-and-letter): every sheet prints fitted to the page width only, as
 * many pages down as it needs, and never smaller than 8 pt text on A4 or US Letter.
 *
 * A spreadsheet fitting a sheet to N pages wide scales it so its columns fit; the printed text is
 * the font size × that scale. So the number of pages across is chosen here from the column widths:
 * the fewest pages on which the columns, laid out at the smallest scale 8 pt allows, fit — on the
 * narrower of the two papers. The application then picks a scale at least that large.
 *
 * A column of width w (Excel's unit: the width of one digit of the default font) is laid out by
 * LibreOffice at 7 pt per unit without Calibri or Carlito installed (measured: width 20 → 140 pt,
 * DejaVu Sans standing in), and by Excel at about 5.25 pt; the wider layout is the one that decides.
 */
import type { PageSetup } from 'exceljs';

/** the smallest printed text size a sheet may have, in points */
export const MIN_PRINTED_PT = 8;
/** the font size of the workbook's cells (exceljs's default Calibri 11; the hand-laid sheets use no smaller) */
export const BODY_PT = 11;
/** points per unit of column width in the widest layout (file comment) */
export const POINTS_PER_WIDTH_UNIT = 7;
/**
 * The smallest scale a sheet is laid out for: 8 pt / 11 pt = 72.7 %, and a little margin, because
 * a spreadsheet rounds its fitted scale down to a whole percent.
 */
export const MIN_SCALE = MIN_PRINTED_PT / BODY_PT + 0.01;

export type Orientation = 'portrait' | 'landscape';

/** Paper sizes in points (portrait). A4 is paperSize 9 in OOXML; the workbook names A4, a printer may use Letter. */
export const PAPERS = {
  A4: { width: 595.28, height: 841.89 },
  Letter: { width: 612, height: 792 },
} as const;

/** Page margins in inches, as OOXML stores them. */
export interface Margins {
  left: number;
  right: number;
  top: number;
  bottom: number;
  header: number;
  footer: number;
}

/** Narrow margins: more of the page for the columns. */
export const NARROW_MARGINS: Margins = { left: 0.3, right: 0.3, top: 0.5, bottom: 0.5, header: 0.3, footer: 0.3 };

const POINTS_PER_INCH = 72;

/** The width a sheet's columns may use on the narrower paper, in points. */
export function printableWidthPt(orientation: Orientation, margins: Margins): number {
  const widths = Object.values(PAPERS).map((p) => (orientation === 'portrait' ? p.width : p.height));
  return Math.min(...widths) - (margins.left + margins.right) * POINTS_PER_INCH;
}

/** The height the rows may use on the shorter paper, in points (for page breaks between blocks). */
export function printableHeightPt(orientation: Orientation, margins: Margins): number {
  const heights = Object.values(PAPERS).map((p) => (orientation === 'portrait' ? p.height : p.width));
  return Math.min(...heights) - (margins.top + margins.bottom) * POINTS_PER_INCH;
}

/**
 * LibreOffice fits a sheet to its pages at a scale some 2 % under what the page's width allows
 * (measured: a sheet of 144 units on Letter landscape printed at 72 %, where 74 % would fit), so the
 * columns are placed on 96 % of the printable width.
 */
export const FIT_SLACK = 0.96;

/** How many width units fit across one page at the smallest scale. */
export function widthUnitsPerPage(orientation: Orientation, margins: Margins, scale = MIN_SCALE): number {
  return (printableWidthPt(orientation, margins) * FIT_SLACK) / scale / POINTS_PER_WIDTH_UNIT;
}

/**
 * Pages across for these column widths: columns are placed page after page, a column never split
 * (spreadsheets break pages between columns), at the smallest legible scale.
 */
export function pagesWide(widths: readonly number[], orientation: Orientation, margins: Margins): number {
  const capacity = widthUnitsPerPage(orientation, margins);
  let pages = 1;
  let used = 0;
  for (const width of widths) {
    if (width > capacity) throw new RangeError(`a column of width ${width} cannot print legibly (at most ${Math.floor(capacity)} per page)`);
    if (used > 0 && used + width > capacity) {
      pages += 1;
      used = 0;
    }
    used += width;
  }
  return pages;
}

export interface PrintOptions {
  orientation: Orientation;
  margins?: Margins;
  /** rows repeated at the top of every page, e.g. `1:1` */
  titleRows?: string;
  /** the printed columns, e.g. `A:M` (what lies beyond is not printed, long text overflowing included) */
  printArea?: string;
}

/**
 * The page setup of a sheet whose printed columns have these widths: A4, fitted to as many pages
 * across as 8 pt text needs and as many down as the rows need, pages numbered across then down (a
 * wide table's row continues on the next page, not 40 pages later).
 */
export function printSetup(widths: readonly number[], options: PrintOptions): Partial<PageSetup> {
  const margins = options.margins ?? NARROW_MARGINS;
  return {
    paperSize: 9,
    orientation: options.orientation,
    fitToPage: true,
    fitToWidth: pagesWide(widths, options.orientation, margins),
    fitToHeight: 0,
    pageOrder: 'overThenDown',
    margins,
    ...(options.titleRows === undefined ? {} : { printTitlesRow: options.titleRows }),
    ...(options.printArea === undefined ? {} : { printArea: options.printArea }),
  };
}

/**
 * Rows of height `LINE_PT` a text of `chars` characters takes wrapped in a cell `width` units wide:
 * an estimate that errs tall (a letter is narrower than a digit), for rows whose height a
 * spreadsheet does not compute itself (merged cells).
 */
export function wrappedLines(text: string, width: number): number {
  const perLine = Math.max(1, Math.floor(width * 1.1));
  return text.split('\n').reduce((n, paragraph) => n + Math.max(1, Math.ceil(paragraph.length / perLine)), 0);
}

/** The height of one line of 11 pt text (exceljs's default row height). */
export const LINE_PT = 15;
