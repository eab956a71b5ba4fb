/**
 * A table's print view (docs/reports.md#printing-8-pt-or-more-on-a4-and-letter): a sheet of its own
 * holding a few of the table's columns, one landscape page wide, in which the rows of one group (a
 * journal entry's lines) never split across pages. The journal's 29 columns print six pages wide;
 * its print view — date, entry, account, debit, credit, memo — prints one.
 *
 * The rows pass through a spool file beside the CSV while the table streams (the workbook writes
 * one sheet at a time, and memory must not grow with the rows), and are drawn from it after the
 * table's own sheet. The page breaks are computed here, so the sheet prints at a fixed scale rather
 * than fitted: at 74 % its 11 pt text prints at 8.1 pt, and a page holds the same rows in every
 * application (row heights are points at any column width).
 */
import { createReadStream } from 'node:fs';
import { appendFile, rm } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import type { PrintView } from '../model/column-spec.js';
import { formatBase } from '../money/format.js';
import { unneutralized } from './csv-read-back.js';
import { LINE_PT, NARROW_MARGINS, printableHeightPt, wrappedLines } from './print-fit.js';
import { decimalStyle, type CompiledTable } from './render-cells.js';
import { BOLD_STYLE, HEADER_RIGHT_STYLE, HEADER_STYLE, putRow, textCell, topAligned, wrapped, type Cell } from './xlsx-cells.js';
import type { StreamingWorkbook } from './xlsx-workbook.js';

/** 8 pt / 11 pt, rounded up to a whole percent: the fixed scale of a print view */
export const PRINT_VIEW_SCALE = 74;
/** rows of LINE_PT one page holds under the repeated header row, on the shorter paper at that scale (one kept spare) */
export const PRINT_VIEW_ROWS = Math.floor(printableHeightPt('landscape', NARROW_MARGINS) / (LINE_PT * (PRINT_VIEW_SCALE / 100))) - 2;
/** spool lines gathered before they are appended to the file */
const FLUSH_CHARS = 256 * 1024;

export class PrintViewSpool<Row> {
  private readonly picks: number[];
  private buffer = '';
  private pending: Promise<void> = Promise.resolve();

  constructor(
    private readonly table: CompiledTable<Row>,
    readonly view: PrintView,
    private readonly path: string,
  ) {
    this.picks = view.columns.map((c) => {
      const at = table.headers.indexOf(c.name);
      if (at < 0) throw new Error(`print view ${view.sheet}: table ${table.spec.id} has no column ${c.name}`);
      return at;
    });
  }

  add(row: Row): void {
    const cells = this.table.csvRow(row);
    this.buffer += `${JSON.stringify(this.picks.map((i) => unneutralized(cells[i] ?? '')))}\n`;
    if (this.buffer.length >= FLUSH_CHARS) this.flush();
  }

  private flush(): void {
    const text = this.buffer;
    this.buffer = '';
    this.pending = this.pending.then(() => appendFile(this.path, text, 'utf8'));
  }

  /** Draws the sheet from the spool, then removes it (it lies in the folder being written). */
  async draw(workbook: StreamingWorkbook): Promise<void> {
    this.flush();
    await this.pending;
    await appendFile(this.path, '', 'utf8');
    try {
      await drawPrintView(workbook, this.view, createInterface({ input: createReadStream(this.path, 'utf8'), crlfDelay: Infinity }));
    } finally {
      await rm(this.path, { force: true });
    }
  }

  async abort(): Promise<void> {
    await this.pending.catch(() => undefined);
    await rm(this.path, { force: true });
  }
}

async function drawPrintView(workbook: StreamingWorkbook, view: PrintView, lines: AsyncIterable<string>): Promise<void> {
  const widths = view.columns.map((c) => c.width);
  const sheet = workbook.addSheet(view.sheet, {
    views: [{ state: 'frozen', ySplit: 1 }],
    pageSetup: { paperSize: 9, orientation: 'landscape', scale: PRINT_VIEW_SCALE, fitToPage: false, margins: NARROW_MARGINS, printTitlesRow: '1:1', printArea: `A:${String.fromCharCode(64 + widths.length)}` },
  });
  sheet.columns = widths.map((width) => ({ width }));
  putRow(sheet, view.columns.map((c) => textCell(c.label, c.amount ? HEADER_RIGHT_STYLE : HEADER_STYLE)), LINE_PT);
  const key = view.columns.findIndex((c) => c.name === view.keepTogether);
  const totals = view.columns.map(() => 0n);
  let scale = 0;
  let group: string[][] = [];
  let used = 0;
  let last = 1;
  const heightOf = (cells: readonly string[]): number => Math.max(...cells.map((v, i) => (view.columns[i]?.amount ? 1 : wrappedLines(v, widths[i] ?? 10))));
  const emit = (): void => {
    if (group.length === 0) return;
    const heights = group.map(heightOf);
    const rows = heights.reduce((a, b) => a + b, 0);
    // the group starts a page when it would not fit on this one (a group longer than a page splits where it must)
    if (used > 0 && used + rows > PRINT_VIEW_ROWS) {
      (sheet as unknown as { rowBreaks: { id: number; max: number; man: number }[] }).rowBreaks.push({ id: last, max: 16383, man: 1 });
      used = 0;
    }
    group.forEach((cells, k) => {
      const height = (heights[k] ?? 1) * LINE_PT;
      last = putRow(sheet, cells.map((v, i) => cellOf(view, i, v, k === 0 || i > key, height > LINE_PT)), height);
      cells.forEach((v, i) => {
        if (!view.columns[i]?.amount || v === '') return;
        const decimals = v.split('.')[1]?.length ?? 0;
        // a figure with more decimals than those summed so far: the sums move to its scale
        if (decimals > scale) totals.forEach((t, j) => (totals[j] = t * 10n ** BigInt(decimals - scale)));
        scale = Math.max(scale, decimals);
        totals[i] = (totals[i] as bigint) + minorUnits(v, scale);
      });
    });
    used += rows;
    group = [];
  };
  for await (const line of lines) {
    if (line === '') continue;
    const cells = JSON.parse(line) as string[];
    if (group.length > 0 && group[0]?.[key] !== cells[key]) emit();
    group.push(cells);
  }
  emit();
  putRow(sheet, view.columns.map((c, i) => (i === 0 ? textCell('total', BOLD_STYLE) : c.amount ? { value: Number(formatBase(totals[i] as bigint, scale)), style: { ...BOLD_STYLE, ...decimalStyle(scale) } } : null)), LINE_PT);
  await workbook.commitSheet(sheet);
}

/** A decimal text in units of 10^-scale (its own decimals never exceed the scale seen so far). */
function minorUnits(text: string, scale: number): bigint {
  const [whole = '0', frac = ''] = text.split('.');
  return BigInt(`${whole}${frac.padEnd(scale, '0')}`);
}

function cellOf(view: PrintView, i: number, value: string, shown: boolean, tall: boolean): Cell | null {
  const column = view.columns[i];
  if (column === undefined || !shown || value === '') return null;
  const top = (style: Cell['style']): Cell['style'] => (tall ? topAligned(style) : style);
  if (column.amount) {
    const decimals = value.split('.')[1]?.length ?? 0;
    return { value: Number(value), style: top(decimalStyle(decimals)) };
  }
  // a date cell: the day's serial number (days since 1899-12-30, the spreadsheets' epoch)
  if (column.date) return { value: Date.parse(`${value}T00:00:00Z`) / 86_400_000 + 25_569, style: top({ numFmt: 'yyyy-mm-dd', alignment: { horizontal: 'left' } }) };
  return textCell(value, top(wrapped({})));
}
