/**
 * Compiles a TableSpec into two row renderers: CSV fields (strings) and XLSX cells (value + a
 * shared style object). Every cell passes through `cells.ts`, so safety rules live in one place.
 *
 * XLSX styles are shared, frozen-by-convention objects: exceljs caches a style id per style
 * object (a WeakMap), so reusing the same object per (type, format) keeps styled writing as fast
 * as unstyled writing — a fresh object per cell would re-hash the style every time.
 */
import type { Style } from 'exceljs';
import { formatBase } from '../money/format.js';
import { displayCurrency, displayScale } from '../money/units.js';
import { decimalFitsExcel, fitsExcelNumber, isPlainDecimal, neutralizeFormula, plainCellText, xlsxText } from './cells.js';
import { tableColumns, type ColumnSpec, type SpecContext, type TableSpec } from '../model/column-spec.js';
import type { ZonedClock } from '../model/zoned-time.js';

export interface RenderContext extends SpecContext {
  readonly clock: ZonedClock;
}

export type XlsxValue = string | number | boolean | Date | null;

/** What rendering an XLSX row met that a reader should be told about (Definitions / manifest). */
export interface XlsxRenderStats {
  /** cells whose control characters (e.g. NUL) were replaced by visible symbols */
  replacedControlChars: number;
  /** text cells cut at Excel's 32,767-character limit */
  truncatedTexts: number;
  /** amounts written as exact text because they exceed 15 significant digits (`_base` and exact decimals) */
  amountsAsText: number;
  /** display amounts beyond 15 significant digits: numbers rounded by Excel, exact in their `_base` column */
  displayAmountsRounded: number;
}

export interface XlsxCellOut {
  values: XlsxValue[];
  styles: Partial<Style>[];
  /** column indexes (0-based) that hold an amount written as text in this row */
  textAmountColumns: number[];
}

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

// --- shared XLSX styles ------------------------------------------------------------------

const TEXT_STYLE: Partial<Style> = {};
const TEXT_AMOUNT_STYLE: Partial<Style> = { numFmt: '@', alignment: { horizontal: 'right' } };
const INTEGER_STYLE: Partial<Style> = { numFmt: '#,##0' };
/**
 * Amounts in base units: a negative one in parentheses, as a statement prints it (docs/reports.md
 * "Number formats"); a count stays `#,##0`. `_)` leaves a positive amount room for the parenthesis
 * so a column of both lines up.
 */
const BASE_STYLE: Partial<Style> = { numFmt: '#,##0_);(#,##0)' };
const PLAIN_INTEGER_STYLE: Partial<Style> = { numFmt: '0' };
const DATE_STYLE: Partial<Style> = { numFmt: 'yyyy-mm-dd hh:mm:ss', alignment: { horizontal: 'left' } };
const DAY_STYLE: Partial<Style> = { numFmt: 'yyyy-mm-dd', alignment: { horizontal: 'left' } };
const DAY_RE = /^(\d{4})-(\d{2})-(\d{2})$/;
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

// --- per-type cell renderers ---------------------------------------------------------------

type CsvCell<Row> = (row: Row) => string;
type XlsxCell<Row> = (row: Row, out: XlsxCellOut, index: number) => void;

function safeText(value: string): string {
  return neutralizeFormula(value);
}

function compileColumn<Row>(col: ColumnSpec<Row>, ctx: RenderContext, stats: XlsxRenderStats): { csv: CsvCell<Row>; xlsx: XlsxCell<Row> } {
  const putText = (out: XlsxCellOut, index: number, value: string | null): void => {
    if (value === null) {
      out.values[index] = null;
    } else {
      const neutral = safeText(value);
      // nearly every cell: used as it is, no result object made (cells.ts)
      if (plainCellText(neutral)) out.values[index] = neutral;
      else {
        const safe = xlsxText(neutral);
        if (safe.replaced) stats.replacedControlChars += 1;
        if (safe.truncated) stats.truncatedTexts += 1;
        out.values[index] = safe.text;
      }
    }
    out.styles[index] = TEXT_STYLE;
  };
  const putAmountText = (out: XlsxCellOut, index: number, digits: string): void => {
    stats.amountsAsText += 1;
    out.values[index] = digits;
    out.styles[index] = TEXT_AMOUNT_STYLE;
    out.textAmountColumns.push(index);
  };

  switch (col.type) {
    case 'id':
    case 'text':
    case 'enum':
      return {
        csv: (row) => {
          const v = col.get(row, ctx);
          return v === null ? '' : safeText(v);
        },
        xlsx: (row, out, i) => putText(out, i, col.get(row, ctx)),
      };
    case 'currency': {
      const show = (row: Row): string | null => {
        const v = col.get(row, ctx);
        return v === null ? null : displayCurrency(v, ctx.assetNames);
      };
      return {
        csv: (row) => {
          const v = show(row);
          return v === null ? '' : safeText(v);
        },
        xlsx: (row, out, i) => putText(out, i, show(row)),
      };
    }
    case 'list': {
      const join = (row: Row): string | null => {
        const v = col.get(row, ctx);
        return v === null || v.length === 0 ? null : v.join(';');
      };
      return {
        csv: (row) => {
          const v = join(row);
          return v === null ? '' : safeText(v);
        },
        xlsx: (row, out, i) => putText(out, i, join(row)),
      };
    }
    case 'json': {
      const toJson = (row: Row): string | null => {
        const raw = col.get(row, ctx);
        if (raw === null || raw === undefined) return null;
        // Keys sorted: the snapshot engines keep different key orders (jsonb reorders, the spool
        // does not), and the files must not depend on which one the report was read from.
        const v = sortedKeys(raw);
        try {
          return JSON.stringify(v);
        } catch {
          // a bigint somewhere inside (JSON.stringify refuses them): the slower path with a replacer
          return JSON.stringify(v, (_k, x: unknown) => (typeof x === 'bigint' ? x.toString() : x));
        }
      };
      return {
        csv: (row) => {
          const v = toJson(row);
          return v === null ? '' : safeText(v);
        },
        xlsx: (row, out, i) => putText(out, i, toJson(row)),
      };
    }
    case 'instant': {
      // a clock of the column's own: its minute cache follows this column (zoned-time.ts fork)
      const clock = ctx.clock.fork();
      return {
        csv: (row) => clock.iso(col.get(row, ctx)) ?? '',
        xlsx: (row, out, i) => {
          out.values[i] = clock.wallClock(col.get(row, ctx));
          out.styles[i] = DATE_STYLE;
        },
      };
    }
    case 'date':
      return {
        csv: (row) => col.get(row, ctx) ?? '',
        xlsx: (row, out, i) => {
          const day = col.get(row, ctx);
          const m = day === null ? null : DAY_RE.exec(day);
          // the day as a date cell (midnight, the zone's wall clock like the instants); anything else stays text
          if (m === null) putText(out, i, day);
          else {
            out.values[i] = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
            out.styles[i] = DAY_STYLE;
          }
        },
      };
    case 'instant_utc':
      return {
        csv: (row) => {
          const v = col.get(row, ctx);
          return v === null ? '' : safeText(v);
        },
        xlsx: (row, out, i) => putText(out, i, col.get(row, ctx)),
      };
    case 'base':
      return {
        csv: (row) => {
          const v = col.get(row, ctx);
          return v === null ? '' : v.toString();
        },
        xlsx: (row, out, i) => {
          const v = col.get(row, ctx);
          if (v === null) {
            out.values[i] = null;
            out.styles[i] = BASE_STYLE;
          } else if (fitsExcelNumber(v)) {
            out.values[i] = Number(v);
            out.styles[i] = BASE_STYLE;
          } else {
            putAmountText(out, i, v.toString());
          }
        },
      };
    case 'display': {
      const scaleOf = (row: Row): number | null => {
        const currency = col.currency(row, ctx);
        return currency === null ? null : displayScale(currency, ctx.assetDecimals);
      };
      return {
        csv: (row) => {
          const v = col.get(row, ctx);
          const scale = scaleOf(row);
          return v === null || scale === null ? '' : formatBase(v, scale);
        },
        xlsx: (row, out, i) => {
          const v = col.get(row, ctx);
          const scale = scaleOf(row);
          if (v === null || scale === null) {
            out.values[i] = null;
            out.styles[i] = TEXT_STYLE;
          } else {
            // Always a number, so a column sums: ≤ 15 digits it is exact (cells.ts); beyond, Excel
            // rounds to 15 significant digits and the `_base` column beside it keeps the exact value.
            if (!fitsExcelNumber(v)) stats.displayAmountsRounded += 1;
            out.values[i] = Number(formatBase(v, scale));
            out.styles[i] = decimalStyle(scale);
          }
        },
      };
    }
    case 'count':
    case 'bps':
      return {
        csv: (row) => {
          const v = col.get(row, ctx);
          return v === null ? '' : v.toString();
        },
        xlsx: (row, out, i) => {
          const v = col.get(row, ctx);
          const style = col.type === 'bps' ? PLAIN_INTEGER_STYLE : INTEGER_STYLE;
          if (v === null) {
            out.values[i] = null;
            out.styles[i] = style;
          } else if (typeof v === 'number' || fitsExcelNumber(v)) {
            out.values[i] = Number(v);
            out.styles[i] = style;
          } else {
            putAmountText(out, i, v.toString());
          }
        },
      };
    case 'decimal':
      return {
        csv: (row) => {
          const v = col.get(row, ctx);
          if (v === null) return '';
          return isPlainDecimal(v) ? v : safeText(v);
        },
        xlsx: (row, out, i) => {
          const v = col.get(row, ctx);
          if (v === null) {
            out.values[i] = null;
            out.styles[i] = TEXT_STYLE;
          } else if (decimalFitsExcel(v)) {
            const point = v.indexOf('.');
            out.values[i] = Number(v);
            out.styles[i] = decimalStyle(point < 0 ? 0 : v.length - point - 1);
          } else if (isPlainDecimal(v)) {
            putAmountText(out, i, v);
          } else {
            putText(out, i, v);
          }
        },
      };
    case 'bool':
      return {
        csv: (row) => {
          const v = col.get(row, ctx);
          return v === null ? '' : v ? 'true' : 'false';
        },
        xlsx: (row, out, i) => {
          out.values[i] = col.get(row, ctx);
          out.styles[i] = TEXT_STYLE;
        },
      };
  }
}

export function compileTable<Row>(spec: TableSpec<Row>, ctx: RenderContext): CompiledTable<Row> {
  const xlsxStats: XlsxRenderStats = { replacedControlChars: 0, truncatedTexts: 0, amountsAsText: 0, displayAmountsRounded: 0 };
  const columns = tableColumns(spec);
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

/** A copy of a JSON value whose objects list their keys in code-unit order (arrays keep theirs). */
function sortedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedKeys);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) out[key] = sortedKeys((value as Record<string, unknown>)[key]);
  return out;
}
