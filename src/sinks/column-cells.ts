/**
 * One column of a table compiled into its two cell renderers — a CSV field (a string) and an XLSX
 * cell (a value and a shared style, cell-styles.ts) — by the column's type. Every text passes
 * through `cells.ts`, so the safety rules (formula neutralizing, control characters, Excel's
 * limits) live in one place; what rendering met is counted in the table's XlsxRenderStats.
 *
 * The renderers are closures made once per column, and the hot path (a cell of a row) makes no
 * object: the bench's export speed depends on it (docs/benchmarks.md).
 */
import { formatBase } from '../money/format.js';
import { displayCurrency, displayScale } from '../money/units.js';
import type { AmountColumn, ColumnSpec, DateColumn, DecimalColumn, InstantColumn } from '../model/column-spec.js';
import { decimalFitsExcel, fitsExcelNumber, isPlainDecimal, neutralizeFormula, plainCellText, xlsxText } from './cells.js';
import { BASE_STYLE, DATE_STYLE, DAY_RE, DAY_STYLE, decimalStyle, INTEGER_STYLE, PLAIN_INTEGER_STYLE, TEXT_AMOUNT_STYLE, TEXT_STYLE } from './cell-styles.js';
import type { RenderContext, XlsxCellOut, XlsxRenderStats } from './render-types.js';

export type CsvCell<Row> = (row: Row) => string;
export type XlsxCell<Row> = (row: Row, out: XlsxCellOut, index: number) => void;
export interface ColumnCells<Row> {
  csv: CsvCell<Row>;
  xlsx: XlsxCell<Row>;
}

/** How a cell is put into the row buffer: text made safe, or an amount kept exact as text. */
interface CellPut {
  text(out: XlsxCellOut, index: number, value: string | null): void;
  amountText(out: XlsxCellOut, index: number, digits: string): void;
}

function cellPut(stats: XlsxRenderStats): CellPut {
  return {
    text(out, index, value) {
      if (value === null) {
        out.values[index] = null;
      } else {
        const neutral = neutralizeFormula(value);
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
    },
    amountText(out, index, digits) {
      stats.amountsAsText += 1;
      out.values[index] = digits;
      out.styles[index] = TEXT_AMOUNT_STYLE;
      out.textAmountColumns.push(index);
    },
  };
}

export function compileColumn<Row>(col: ColumnSpec<Row>, ctx: RenderContext, stats: XlsxRenderStats): ColumnCells<Row> {
  const put = cellPut(stats);
  switch (col.type) {
    case 'id':
    case 'text':
    case 'enum':
    case 'instant_utc':
      return textCells((row) => col.get(row, ctx), put);
    case 'currency':
      return textCells((row) => {
        const v = col.get(row, ctx);
        return v === null ? null : displayCurrency(v, ctx.assetNames);
      }, put);
    case 'list':
      return textCells((row) => {
        const v = col.get(row, ctx);
        return v === null || v.length === 0 ? null : v.join(';');
      }, put);
    case 'json':
      return textCells((row) => jsonText(col.get(row, ctx)), put);
    case 'instant':
      return instantCells(col, ctx);
    case 'date':
      return dateCells(col, ctx, put);
    case 'base':
      return integerCells(col, ctx, put, BASE_STYLE);
    case 'display':
      return displayCells(col, ctx, stats);
    case 'count':
    case 'bps':
      return integerCells(col, ctx, put, col.type === 'bps' ? PLAIN_INTEGER_STYLE : INTEGER_STYLE);
    case 'decimal':
      return decimalCells(col, ctx, put);
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

/** A column shown as text: the CSV field neutralized, the XLSX cell through cellPut's checks. */
function textCells<Row>(show: (row: Row) => string | null, put: CellPut): ColumnCells<Row> {
  return {
    csv: (row) => {
      const v = show(row);
      return v === null ? '' : neutralizeFormula(v);
    },
    xlsx: (row, out, i) => put.text(out, i, show(row)),
  };
}

function jsonText(raw: unknown): string | null {
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
}

/** A copy of a JSON value whose objects list their keys in code-unit order (arrays keep theirs). */
function sortedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedKeys);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) out[key] = sortedKeys((value as Record<string, unknown>)[key]);
  return out;
}

function instantCells<Row>(col: InstantColumn<Row>, ctx: RenderContext): ColumnCells<Row> {
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

function dateCells<Row>(col: DateColumn<Row>, ctx: RenderContext, put: CellPut): ColumnCells<Row> {
  return {
    csv: (row) => col.get(row, ctx) ?? '',
    xlsx: (row, out, i) => {
      const day = col.get(row, ctx);
      const m = day === null ? null : DAY_RE.exec(day);
      // the day as a date cell (midnight, the zone's wall clock like the instants); anything else stays text
      if (m === null) put.text(out, i, day);
      else {
        out.values[i] = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
        out.styles[i] = DAY_STYLE;
      }
    },
  };
}

function displayCells<Row>(col: AmountColumn<Row>, ctx: RenderContext, stats: XlsxRenderStats): ColumnCells<Row> {
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

/** Base units and counts: a number in its style, or exact text beyond Excel's 15 digits. */
function integerCells<Row>(col: { get: (row: Row, ctx: RenderContext) => number | bigint | null }, ctx: RenderContext, put: CellPut, style: typeof INTEGER_STYLE): ColumnCells<Row> {
  return {
    csv: (row) => {
      const v = col.get(row, ctx);
      return v === null ? '' : v.toString();
    },
    xlsx: (row, out, i) => {
      const v = col.get(row, ctx);
      if (v === null) {
        out.values[i] = null;
        out.styles[i] = style;
      } else if (typeof v === 'number' || fitsExcelNumber(v)) {
        out.values[i] = Number(v);
        out.styles[i] = style;
      } else {
        put.amountText(out, i, v.toString());
      }
    },
  };
}

function decimalCells<Row>(col: DecimalColumn<Row>, ctx: RenderContext, put: CellPut): ColumnCells<Row> {
  return {
    csv: (row) => {
      const v = col.get(row, ctx);
      if (v === null) return '';
      return isPlainDecimal(v) ? v : neutralizeFormula(v);
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
        put.amountText(out, i, v);
      } else {
        put.text(out, i, v);
      }
    },
  };
}
