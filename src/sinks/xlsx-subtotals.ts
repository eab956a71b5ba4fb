/**
 * The subtotal and total rows of a table sheet (column-spec.ts SubtotalSpec): sums kept exactly in
 * bigint as the rows stream past (memory: one group and one total per key), written as formulas
 * over the sheet's own cells — SUBTOTAL(9, range) per group, SUMIFS over the marked subtotal rows
 * per key — each with its exact result cached, so Excel, LibreOffice and a reader that does not
 * recalculate show the same figure, and the sheet still recalculates when a cell is changed.
 *
 * A sum is left empty when a value of its group is unknown (an empty cell is unknown, never zero,
 * docs/reports.md), and written as a plain value where a formula could not hold it: more than 15
 * digits (Excel would round it), or a group that continues on the next sheet.
 */
import type { Style } from 'exceljs';
import { formatBase, parseDecimalToBase } from '../money/format.js';
import { displayScale } from '../money/units.js';
import { decimalFitsExcel, fitsExcelNumber, neutralizeFormula, xlsxText } from './cells.js';
import type { ColumnSpec, SpecContext, SubtotalSpec } from '../model/column-spec.js';
import { amountFormat, decimalStyle, type XlsxValue } from './render-cells.js';
import { columnLetter } from './xlsx-row-xml.js';

export interface FormulaValue {
  formula: string;
  result: number;
}

export interface ExtraRow {
  values: (XlsxValue | FormulaValue)[];
  styles: Partial<Style>[];
}

interface Sum {
  /** base units (base, display) or the decimal's digits at `scale` decimals */
  total: bigint;
  scale: number;
  unknown: boolean;
}

interface Group<Row> {
  key: string;
  first: Row;
  rows: number;
  /** its first sheet row, or null when it began on an earlier sheet */
  firstRow: number | null;
  sums: Sum[];
}

const BOLD = { name: 'Calibri', family: 2, size: 11, bold: true } as const;
const boldStyles = new Map<string, Partial<Style>>();

/** A bold style with this number format (one shared object per format: exceljs caches style ids per object). */
function bold(numFmt: string | undefined): Partial<Style> {
  const key = numFmt ?? '';
  let style = boldStyles.get(key);
  if (style === undefined) {
    style = numFmt === undefined ? { font: BOLD } : { font: BOLD, numFmt };
    boldStyles.set(key, style);
  }
  return style;
}

/** A key that may stand in a formula's text criterion (our own codes: btc, asset:<hex>, a UUID). */
const SAFE_KEY = /^[A-Za-z0-9:_.-]*$/;

export class SubtotalRows<Row> {
  private group: Group<Row> | null = null;
  private readonly totals = new Map<string, { groups: number; sums: Sum[] }>();
  private readonly sumIndexes: number[];

  constructor(
    private readonly spec: SubtotalSpec<Row>,
    private readonly columns: readonly ColumnSpec<Row>[],
    private readonly ctx: SpecContext,
  ) {
    this.sumIndexes = spec.sums.map((name) => {
      const i = columns.findIndex((c) => c.name === name);
      const type = columns[i]?.type;
      if (type !== 'base' && type !== 'display' && type !== 'decimal') throw new Error(`subtotal column ${name} is not an amount column`);
      return i;
    });
    for (const name of [spec.mark.column, ...(spec.totalsBy ? [spec.totalsBy.column] : [])]) {
      if (!columns.some((c) => c.name === name)) throw new Error(`subtotal column ${name} is not a column of the table`);
    }
  }

  /** The group `row` belongs to, if it closes the current one: that group's subtotal row is due first. */
  closes(row: Row): boolean {
    return this.group !== null && this.group.key !== this.spec.groupOf(row, this.ctx);
  }

  /** Counts `row`, written at `sheetRow`, into its group. */
  add(row: Row, sheetRow: number): void {
    if (this.group === null) this.group = { key: this.spec.groupOf(row, this.ctx), first: row, rows: 0, firstRow: sheetRow, sums: this.sumIndexes.map(() => ({ total: 0n, scale: 0, unknown: false })) };
    const group = this.group;
    group.rows += 1;
    this.sumIndexes.forEach((index, k) => addValue(group.sums[k] as Sum, this.columns[index] as ColumnSpec<Row>, row, this.ctx));
  }

  /** The current group continues on a new sheet: its subtotal can no longer be a formula over its rows. */
  continued(): void {
    if (this.group !== null) this.group.firstRow = null;
  }

  /** The subtotal row of the current group, to be written at `sheetRow` (the group is done). */
  subtotal(sheetRow: number): ExtraRow | null {
    const group = this.group;
    if (group === null) return null;
    this.group = null;
    const texts = this.spec.label(group.first, group.rows, this.ctx);
    const range = group.firstRow === null ? null : { from: group.firstRow, to: sheetRow - 1 };
    const key = this.spec.totalsBy === undefined ? null : (texts[this.spec.totalsBy.column] ?? '');
    if (key !== null) {
      const total = this.totals.get(key) ?? { groups: 0, sums: group.sums.map((s) => ({ total: 0n, scale: s.scale, unknown: false })) };
      group.sums.forEach((s, k) => mergeSum(total.sums[k] as Sum, s));
      total.groups += 1;
      this.totals.set(key, total);
    }
    return this.row(texts, group.sums, (letter) => (range === null ? null : `SUBTOTAL(9,${letter}${range.from}:${letter}${range.to})`));
  }

  /** The total rows, one per key, over the subtotal rows of rows 2 to `lastRow` (null: the table spans sheets, values only). */
  totalRows(lastRow: number | null): ExtraRow[] {
    const by = this.spec.totalsBy;
    if (by === undefined) return [];
    const markAt = columnLetter(this.columns.findIndex((c) => c.name === this.spec.mark.column) + 1);
    const keyAt = columnLetter(this.columns.findIndex((c) => c.name === by.column) + 1);
    const quote = (text: string): string => `"${text.replaceAll('"', '""')}"`;
    return [...this.totals].map(([key, total]) =>
      this.row(by.label(key, total.groups, this.ctx), total.sums, (letter) =>
        lastRow === null || !SAFE_KEY.test(key) || !SAFE_KEY.test(this.spec.mark.text)
          ? null
          : `SUMIFS(${letter}$2:${letter}$${lastRow},${keyAt}$2:${keyAt}$${lastRow},${quote(key)},${markAt}$2:${markAt}$${lastRow},${quote(this.spec.mark.text)})`,
      ),
    );
  }

  private row(texts: Readonly<Record<string, string>>, sums: readonly Sum[], formulaOf: (letter: string) => string | null): ExtraRow {
    const values: (XlsxValue | FormulaValue)[] = this.columns.map(() => null);
    const styles: Partial<Style>[] = this.columns.map(() => bold(undefined));
    this.columns.forEach((c, i) => {
      const text = texts[c.name];
      if (text !== undefined) values[i] = xlsxText(neutralizeFormula(text)).text;
    });
    this.sumIndexes.forEach((index, k) => {
      const sum = sums[k] as Sum;
      const column = this.columns[index] as ColumnSpec<Row>;
      const cell = sumCell(sum, column.type);
      styles[index] = bold(cell.numFmt);
      if (cell.value === null || typeof cell.value === 'string') {
        values[index] = cell.value;
        return;
      }
      const formula = formulaOf(columnLetter(index + 1));
      values[index] = formula === null ? cell.value : { formula, result: cell.value };
    });
    return { values, styles };
  }
}

function addValue<Row>(sum: Sum, column: ColumnSpec<Row>, row: Row, ctx: SpecContext): void {
  if (column.type === 'base' || column.type === 'display') {
    const v = column.get(row, ctx);
    if (v === null) sum.unknown = true;
    else sum.total += v;
    if (column.type === 'display') sum.scale = displayScale(column.currency(row, ctx) ?? '', ctx.assetDecimals) ?? 0;
    return;
  }
  if (column.type !== 'decimal') return;
  const text = column.get(row, ctx);
  if (text === null) {
    sum.unknown = true;
    return;
  }
  const point = text.indexOf('.');
  mergeSum(sum, { total: parseDecimalToBase(text, point < 0 ? 0 : text.length - point - 1), scale: point < 0 ? 0 : text.length - point - 1, unknown: false });
}

/** into += from, at the larger of their scales */
function mergeSum(into: Sum, from: Sum): void {
  if (from.scale > into.scale) {
    into.total *= 10n ** BigInt(from.scale - into.scale);
    into.scale = from.scale;
  }
  into.total += from.total * 10n ** BigInt(into.scale - from.scale);
  into.unknown ||= from.unknown;
}

/** The exact sum as a cell: a number where Excel holds it exactly, else the exact digits as text. */
function sumCell(sum: Sum, type: ColumnSpec<never>['type']): { value: number | string | null; numFmt: string | undefined } {
  if (sum.unknown) return { value: null, numFmt: undefined };
  if (type === 'base') return fitsExcelNumber(sum.total) ? { value: Number(sum.total), numFmt: amountFormat(0) } : { value: sum.total.toString(), numFmt: '@' };
  const text = formatBase(sum.total, sum.scale);
  const numFmt = decimalStyle(sum.scale).numFmt;
  // a display amount is always a number (render-cells.ts); an exact decimal only where it stays exact
  if (type === 'display' || decimalFitsExcel(text)) return { value: Number(text), numFmt };
  return { value: text, numFmt: '@' };
}
