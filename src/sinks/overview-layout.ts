/**
 * How the Overview is laid out and printed (docs/reports.md "Overview"): nine columns sized so the
 * cover prints landscape one page wide with its text at 8 pt or more (print-fit.ts); long text
 * wraps inside the printed columns instead of running past them (which would widen the printout);
 * the title and verdict repeat at the top of every page; a block that must not be cut by a page
 * (the fee charts) starts a page when it would not fit on the current one.
 */
import type { Style, Worksheet } from 'exceljs';
import { NARROW_MARGINS, LINE_PT, MIN_SCALE, printableHeightPt, printSetup, wrappedLines } from './print-fit.js';
import type { PageSetup } from 'exceljs';
import { columnLetter } from './xlsx-row-xml.js';
import { HEADER_INDENT_STYLE, HEADER_RIGHT_STYLE, HEADER_STYLE, putRow, putWrapped, SECTION_STYLE, textCell, topAligned, wrapped, type Cell } from './xlsx-cells.js';

/**
 * A: labels, names and ids; B: counts and short codes; C–G: amounts; H: a short verdict; I: words
 * (they wrap). 139 units: one landscape Letter page at 8 pt (print-fit.ts); amounts longer than
 * their column widen C–G, and the cover then prints on two pages across, still at 8 pt.
 */
export const BASE_WIDTHS = [22, 11, 16, 16, 16, 16, 16, 9, 17];
const AMOUNT_COLUMNS = [2, 3, 4, 5, 6];

/** The column widths for amounts of up to `longest` characters. */
export function overviewWidths(longest: number): number[] {
  return BASE_WIDTHS.map((w, i) => (AMOUNT_COLUMNS.includes(i) ? Math.max(w, longest + 1) : w));
}

/** rows 1–2 (the title and the tie-out verdict) on every page */
export function overviewPageSetup(widths: readonly number[]): Partial<PageSetup> {
  return printSetup(widths, { orientation: 'landscape', margins: NARROW_MARGINS, titleRows: '1:2', printArea: `A:${columnLetter(widths.length)}` });
}

/** Rows of the default height one printed page holds, on the shorter paper, at the smallest scale, less the repeated title rows. */
export const ROWS_PER_PAGE = Math.floor(printableHeightPt('landscape', NARROW_MARGINS) / MIN_SCALE / LINE_PT) - 3;

/** The Overview's rows, with the count of rows since the last page break (for blocks that must not be cut). */
export class OverviewRows {
  private sincePageBreak = 0;
  private last = 0;

  constructor(
    readonly sheet: Worksheet,
    readonly widths: readonly number[],
  ) {}

  put(cells: readonly (Cell | null)[], height?: number, merges: readonly (readonly [number, number])[] = []): number {
    const tall = height !== undefined && height > LINE_PT;
    const n = putRow(this.sheet, tall ? cells.map((c) => (c === null ? null : { value: c.value, style: topAligned(c.style) })) : cells, height, merges);
    this.sincePageBreak += Math.max(1, Math.round((height ?? LINE_PT) / LINE_PT));
    this.last = n;
    return n;
  }

  /** a text across all columns, wrapped, its row as tall as it needs */
  note(text: string, style: Partial<Style>): number {
    const n = putWrapped(this.sheet, text, this.widths, style);
    this.sincePageBreak += wrappedLines(text, this.widths.reduce((a, b) => a + b, 0));
    this.last = n;
    return n;
  }

  section(title: string): void {
    // a thin gap above each section: the filled title row sets it apart, and the cover keeps to two pages
    this.put([], 6);
    this.put([textCell(title, SECTION_STYLE), ...this.widths.slice(1).map(() => textCell('', SECTION_STYLE))], 20);
  }

  /**
   * Starts a new page before a block of `rows` default rows that would not fit on this one: a
   * manual break under the last row written (kept by Excel and LibreOffice when fitting to width).
   */
  keepTogether(rows: number): void {
    if (this.sincePageBreak + rows <= ROWS_PER_PAGE || this.last === 0) return;
    // exceljs's stream writer keeps `rowBreaks` and writes them when the sheet is committed
    (this.sheet as unknown as { rowBreaks: { id: number; max: number; man: number }[] }).rowBreaks.push({ id: this.last, max: 16383, man: 1 });
    this.sincePageBreak = 0;
  }
}

/** A header row; labels of number columns (from index `numbersFrom`, except `textAt`) are right-aligned over their numbers; `wrapAt`: columns whose label wraps. */
export function headerCells(labels: readonly string[], numbersFrom = labels.length, textAt: readonly number[] = []): Cell[] {
  return labels.map((l, i) => textCell(l, wrapped(textAt.includes(i) ? HEADER_INDENT_STYLE : i >= numbersFrom ? HEADER_RIGHT_STYLE : HEADER_STYLE)));
}

/** The height a row needs for these texts wrapped in their columns (one line at least). */
export function rowHeight(texts: readonly (string | null)[], widths: readonly number[]): number {
  return Math.max(1, ...texts.map((t, i) => (t === null ? 1 : wrappedLines(t, widths[i] ?? 10)))) * LINE_PT;
}
