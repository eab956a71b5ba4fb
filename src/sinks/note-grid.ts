/**
 * A hand-laid sheet written row after row (the Crypto assets note): each row knows its number
 * before it is written, so a formula can name the rows above it; figures are numbers in the
 * amount format (negative in parentheses), formulas carry their exact result so a reader that does
 * not recalculate shows the same figure, and a long label wraps in its column.
 */
import type { Style, Worksheet } from 'exceljs';
import { formatBase } from '../money/format.js';
import { LINE_PT, wrappedLines } from './print-fit.js';
import { decimalStyle } from './render-cells.js';
import { BOLD_STYLE, HEADER_RIGHT_STYLE, HEADER_STYLE, putRow, putWrapped, SECTION_STYLE, textCell, topAligned, wrapped, type Cell } from './xlsx-cells.js';

/** A books-currency figure or units in base units; null: unknown (an empty cell). */
export type Figure = bigint | null;

export const COUNT: Partial<Style> = { numFmt: '#,##0' };

export class NoteGrid {
  next = 1;

  constructor(
    private readonly sheet: Worksheet,
    /** the sheet's column widths (the label column first) */
    readonly widths: readonly number[],
    private readonly minorUnits: number,
  ) {}

  put(cells: readonly (Cell | null)[], rowHeight?: number, merges: readonly (readonly [number, number])[] = []): number {
    // a label longer than its column wraps, and its row grows to hold it
    const label = cells[0];
    const lines = rowHeight === undefined && merges.length === 0 && typeof label?.value === 'string' ? wrappedLines(label.value, this.widths[0] ?? 1) : 1;
    const height = lines > 1 ? lines * LINE_PT : rowHeight;
    const first = lines > 1 && label !== null && label !== undefined ? [{ value: label.value, style: wrapped(label.style) }, ...cells.slice(1)] : cells;
    // a row taller than a line: its figures line up with the label's first line
    const tall = height !== undefined && height > LINE_PT;
    const n = putRow(this.sheet, tall ? first.map((c) => (c === null ? null : { value: c.value, style: topAligned(c.style) })) : first, height, merges);
    this.next = n + 1;
    return n;
  }

  /** A sentence across the printed columns, wrapped. */
  wrap(text: string, style: Partial<Style>, linePt = LINE_PT): number {
    const n = putWrapped(this.sheet, text, this.widths, style, 1, linePt);
    this.next = n + 1;
    return n;
  }

  /** A blank row and a section title across the columns. */
  section(title: string): void {
    this.put([]);
    this.put(this.widths.map((_, i) => textCell(i === 0 ? title : '', SECTION_STYLE)), 20);
  }

  /** A header row: labels over numbers right-aligned, the first `texts` of `rest` (over text) left-aligned. */
  header(first: string, rest: readonly string[], texts = 0): void {
    const width = this.widths[1] ?? 1;
    this.put([textCell(first, HEADER_STYLE), ...rest.map((h, i) => textCell(h, wrapped(i < texts ? HEADER_STYLE : HEADER_RIGHT_STYLE)))], Math.max(1, ...rest.map((h) => wrappedLines(h, width))) * LINE_PT);
  }

  money(v: Figure, bold = false): Cell {
    return { value: v === null ? null : Number(formatBase(v, this.minorUnits)), style: bold ? boldNumber(this.minorUnits) : decimalStyle(this.minorUnits) };
  }

  units(v: bigint, scale: number, bold = false): Cell {
    return { value: Number(formatBase(v, scale)), style: bold ? boldNumber(scale) : decimalStyle(scale) };
  }

  /**
   * A check that should be 0 (`x − y`), rounded to the figures' decimals: a spreadsheet adds in
   * binary floating point, and an unrounded difference of exact decimals prints as (0.00).
   */
  difference(expression: string, result: Figure, scale = this.minorUnits): Cell {
    return this.formula(`ROUND(${expression},${scale})`, result, scale);
  }

  /** A formula with its exact result; an unknown figure stays an empty cell. */
  formula(formula: string, result: Figure, scale = this.minorUnits): Cell {
    return { value: result === null ? null : { formula, result: Number(formatBase(result, scale)) }, style: boldNumber(scale) };
  }
}

const boldNumbers = new Map<number, Partial<Style>>();
function boldNumber(scale: number): Partial<Style> {
  let style = boldNumbers.get(scale);
  if (style === undefined) {
    style = { ...BOLD_STYLE, ...decimalStyle(scale) };
    boldNumbers.set(scale, style);
  }
  return style;
}

/** Σ of figures; null when one is unknown. */
export function sumOf(values: readonly Figure[]): Figure {
  return values.some((v) => v === null) ? null : values.reduce<bigint>((a, v) => a + (v as bigint), 0n);
}

/** x − y; null when one is unknown. */
export function differenceOf(x: Figure, y: Figure): Figure {
  return x === null || y === null ? null : x - y;
}

/** −x; null stays null. */
export function negated(x: Figure): Figure {
  return x === null ? null : -x;
}
