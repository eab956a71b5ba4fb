/**
 * One column spec per report (docs/design.md#boundaries: column definitions live once): name, type,
 * description and how to read the value from the row. The same spec drives the CSV writer, the
 * XLSX sheet, the Definitions sheet and docs/reports.md, so they cannot drift apart.
 *
 * Helpers expand the pairs every accountant-facing file needs: an amount becomes `<x>_base`
 * (exact integer base units, the contract column) plus `<x>` (display units: BTC with 11
 * decimals, USD with 2, an asset with its `decimal_display`), and an instant becomes `<x>` (ISO
 * 8601 with the reporting zone's offset) plus `<x>_utc`.
 */
import type { UtcInstant } from './rows.js';

/** What a getter may need beyond the row: asset metadata and the report's as-of instant. */
export interface SpecContext {
  /** `asset:<hex>` → decimal_display */
  readonly assetDecimals: ReadonlyMap<string, number>;
  /** `asset:<hex>` → the asset's name */
  readonly assetNames: ReadonlyMap<string, string>;
  /** the end of the report window: what "now" means for ages of open items */
  readonly asOf: UtcInstant;
  /** wallet UUID → the wallet's name (the `wallet_name` column beside every `wallet_id`) */
  readonly walletNames?: ReadonlyMap<string, string>;
}

/** How a column is rendered (see `render-cells.ts` and the Definitions sheet). */
export type ColumnType =
  | 'id'
  | 'text'
  | 'enum'
  | 'currency'
  | 'list'
  | 'json'
  | 'instant'
  | 'instant_utc'
  | 'date'
  | 'base'
  | 'display'
  | 'count'
  | 'bps'
  | 'decimal'
  | 'bool';

interface ColumnBase {
  /** the header, snake_case; a contract column keeps its contract name */
  readonly name: string;
  readonly description: string;
  /** XLSX column width in characters (a sensible default per type otherwise) */
  readonly width?: number;
}

export type TextColumn<Row> = ColumnBase & { readonly type: 'id' | 'text' | 'enum'; readonly get: (row: Row, ctx: SpecContext) => string | null };
/** a currency code (`btc`, `asset:<hex>`) shown as its display code: BTC, USD or the asset's name */
export type CurrencyColumn<Row> = ColumnBase & { readonly type: 'currency'; readonly get: (row: Row, ctx: SpecContext) => string | null };
export type ListColumn<Row> = ColumnBase & { readonly type: 'list'; readonly get: (row: Row, ctx: SpecContext) => readonly string[] | null };
export type JsonColumn<Row> = ColumnBase & { readonly type: 'json'; readonly get: (row: Row, ctx: SpecContext) => unknown };
export type InstantColumn<Row> = ColumnBase & { readonly type: 'instant' | 'instant_utc'; readonly get: (row: Row, ctx: SpecContext) => UtcInstant | null };
/** a calendar day, `YYYY-MM-DD` (a day of the reporting zone, no time) */
export type DateColumn<Row> = ColumnBase & { readonly type: 'date'; readonly get: (row: Row, ctx: SpecContext) => string | null };
/** integer base units, and (for `display`) the currency that decides the decimals */
export type AmountColumn<Row> = ColumnBase & {
  readonly type: 'base' | 'display';
  readonly get: (row: Row, ctx: SpecContext) => bigint | null;
  readonly currency: (row: Row, ctx: SpecContext) => string | null;
};
export type CountColumn<Row> = ColumnBase & { readonly type: 'count' | 'bps'; readonly get: (row: Row, ctx: SpecContext) => number | bigint | null };
/** an exact decimal as text (`-12.5`, `1500`), e.g. a finding's figures or a rate */
export type DecimalColumn<Row> = ColumnBase & { readonly type: 'decimal'; readonly get: (row: Row, ctx: SpecContext) => string | null };
export type BoolColumn<Row> = ColumnBase & { readonly type: 'bool'; readonly get: (row: Row, ctx: SpecContext) => boolean | null };

export type ColumnSpec<Row> =
  | TextColumn<Row>
  | CurrencyColumn<Row>
  | ListColumn<Row>
  | JsonColumn<Row>
  | InstantColumn<Row>
  | DateColumn<Row>
  | AmountColumn<Row>
  | CountColumn<Row>
  | DecimalColumn<Row>
  | BoolColumn<Row>;

export interface TableSpec<Row> {
  /** stable id, also the CSV file stem: `payments` → payments.csv */
  readonly id: string;
  readonly file: string;
  /** the XLSX sheet name (≤ 31 characters; continuation sheets add " (2)") */
  readonly sheet: string;
  /** one line for the Definitions sheet and the docs: what one row is */
  readonly rowIs: string;
  readonly columns: readonly ColumnSpec<Row>[];
  /**
   * The columns a person reads on paper, for a table too wide to print one page across at 8 pt: the
   * sheet shows them first, in this order, then every other column in the spec's order, and prints
   * these alone, one page across (docs/reports.md#printing-8-pt-or-more-on-a4-and-letter). The CSV
   * keeps the spec's order. Default: every column, printed as many pages across as they need.
   */
  readonly printColumns?: readonly string[];
  /**
   * A sheet of its own that prints the table one page wide: a few of its columns, each at a width,
   * the rows sharing a `keepTogether` value never split across pages (sinks/print-view.ts). Drawn
   * from the CSV's cells after the table's sheet; absent when no CSV is written.
   */
  readonly printView?: PrintView;
  /** subtotal rows in the sheet after each group of rows, and totals at its end (never in the CSV) */
  readonly subtotals?: SubtotalSpec<Row>;
  /**
   * The sheet is laid out by its own writer (a disclosure note read top to bottom), not one row per
   * record: the CSV is the table, the sheet is not listed among the workbook's table sheets.
   */
  readonly laidOut?: true;
}

export interface PrintView {
  readonly sheet: string;
  /** the CSV columns printed, in order; `amount`: a decimal figure, summed in a total line */
  readonly columns: readonly { readonly name: string; readonly label: string; readonly width: number; readonly amount?: true; readonly date?: true }[];
  /** the column whose value groups rows that stay on one page; shown on a group's first row only, as every column before it */
  readonly keepTogether: string;
}

/**
 * Subtotal rows of a table's sheet (docs/reports.md "Subtotals"): after each group of rows (the
 * rows of a group are written together), one row summing its amount columns with a SUBTOTAL
 * formula; after the last group, one total per value of `totalsBy.column` over the subtotal rows
 * (SUMIFS on the `mark` column). Formulas carry their exact result, so a reader that does not
 * recalculate shows the same figure. The CSV never has these rows.
 */
export interface SubtotalSpec<Row> {
  readonly groupOf: (row: Row, ctx: SpecContext) => string;
  /** the amount columns summed: base, display or decimal columns */
  readonly sums: readonly string[];
  /** the text cells of a group's subtotal row, by column name, from its first row and its number of rows */
  readonly label: (first: Row, rows: number, ctx: SpecContext) => Readonly<Record<string, string>>;
  /** the column and text that mark a subtotal row (the label must put that text there) */
  readonly mark: { readonly column: string; readonly text: string };
  /** totals across groups, one per value the subtotal rows have in `column`, in order of appearance */
  readonly totalsBy?: { readonly column: string; readonly label: (key: string, groups: number, ctx: SpecContext) => Readonly<Record<string, string>> };
}

/**
 * The columns a table is written with: its spec's columns, and a `wallet_name` beside every
 * `wallet_id` (read from the context's wallet names), so that every table — including tables added
 * later — shows the name a person knows the wallet by without repeating it in each spec. CSV, XLSX,
 * Definitions and the docs all go through here.
 */
export function tableColumns<Row>(spec: TableSpec<Row>): readonly ColumnSpec<Row>[] {
  const cached = layoutCache.get(spec);
  if (cached !== undefined) return cached as readonly ColumnSpec<Row>[];
  const out: ColumnSpec<Row>[] = [];
  const hasName = spec.columns.some((c) => c.name === WALLET_NAME);
  for (const col of spec.columns) {
    out.push(col);
    if (col.name === 'wallet_id' && !hasName && (col.type === 'id' || col.type === 'text')) {
      out.push(walletName(col.get));
    }
  }
  layoutCache.set(spec, out);
  return out;
}

const WALLET_NAME = 'wallet_name';
const WALLET_NAME_DESCRIPTION = "the wallet's name as the API lists it, for reading (wallet_id is the key); empty when the wallet has none";
const layoutCache = new WeakMap<object, readonly unknown[]>();

/**
 * Any table, for code that reads only names, types and descriptions (Definitions, docs): a getter
 * that accepts some row type is assignable to one that accepts `never`.
 */
export type AnyTableSpec = TableSpec<never>;

/** What the Definitions sheet and the docs say about each type. */
export const COLUMN_TYPE_INFO: Readonly<Record<ColumnType, { label: string; csv: string; xlsx: string }>> = {
  id: { label: 'identifier', csv: 'text', xlsx: 'text cell' },
  text: { label: 'text', csv: 'text, formula-neutralized', xlsx: 'text cell, formula-neutralized' },
  enum: { label: 'code', csv: 'text', xlsx: 'text cell' },
  currency: { label: 'display currency', csv: 'BTC, USD or the asset name', xlsx: 'text cell' },
  list: { label: 'list', csv: 'values joined with ";"', xlsx: 'text cell' },
  json: { label: 'JSON', csv: 'JSON text', xlsx: 'text cell' },
  instant: { label: 'date-time (reporting zone)', csv: 'ISO 8601 with offset, microseconds', xlsx: 'date cell, yyyy-mm-dd hh:mm:ss, wall-clock time in the reporting zone' },
  instant_utc: { label: 'date-time (UTC)', csv: 'ISO 8601 UTC (Z), microseconds', xlsx: 'text cell, exact' },
  date: { label: 'date', csv: 'YYYY-MM-DD', xlsx: 'date cell, yyyy-mm-dd' },
  base: { label: 'amount in base units', csv: 'integer digits (msats, cents, asset base units)', xlsx: 'number #,##0 when ≤ 15 digits, else exact text' },
  display: { label: 'amount in display units', csv: 'plain decimal: BTC 11 dp, USD 2 dp, asset decimal_display', xlsx: 'number with thousands separators and the currency\'s decimals — always a number so it sums; beyond 15 significant digits Excel rounds it and the *_base column holds the exact value' },
  count: { label: 'count', csv: 'integer', xlsx: 'number' },
  bps: { label: 'basis points', csv: 'integer (100 = 1 %)', xlsx: 'number' },
  decimal: { label: 'exact decimal', csv: 'plain decimal digits', xlsx: 'number when ≤ 15 digits, else exact text' },
  bool: { label: 'yes/no', csv: 'true / false', xlsx: 'boolean cell' },
};

// --- helpers ------------------------------------------------------------------------------

export function text<Row>(name: string, description: string, get: (row: Row, ctx: SpecContext) => string | null, width?: number): TextColumn<Row> {
  return { name, type: 'text', description, get, ...(width === undefined ? {} : { width }) };
}

export function id<Row>(name: string, description: string, get: (row: Row, ctx: SpecContext) => string | null): TextColumn<Row> {
  return { name, type: 'id', description, get };
}

export function code<Row>(name: string, description: string, get: (row: Row, ctx: SpecContext) => string | null): TextColumn<Row> {
  return { name, type: 'enum', description, get };
}

export function displayCurrencyColumn<Row>(get: (row: Row, ctx: SpecContext) => string | null): CurrencyColumn<Row> {
  return { name: 'display_currency', type: 'currency', description: 'unit of the display amounts: BTC, USD, or the asset name', get };
}

export function list<Row>(name: string, description: string, get: (row: Row, ctx: SpecContext) => readonly string[] | null): ListColumn<Row> {
  return { name, type: 'list', description, get };
}

export function json<Row>(name: string, description: string, get: (row: Row, ctx: SpecContext) => unknown): JsonColumn<Row> {
  return { name, type: 'json', description, get };
}

export function count<Row>(name: string, description: string, get: (row: Row, ctx: SpecContext) => number | bigint | null): CountColumn<Row> {
  return { name, type: 'count', description, get };
}

export function bps<Row>(name: string, description: string, get: (row: Row, ctx: SpecContext) => number | null): CountColumn<Row> {
  return { name, type: 'bps', description, get };
}

/** A calendar day (`YYYY-MM-DD`): text in the CSV, a date cell in the sheet. */
export function date<Row>(name: string, description: string, get: (row: Row, ctx: SpecContext) => string | null): DateColumn<Row> {
  return { name, type: 'date', description, get };
}

export function decimal<Row>(name: string, description: string, get: (row: Row, ctx: SpecContext) => string | null): DecimalColumn<Row> {
  return { name, type: 'decimal', description, get };
}

export function bool<Row>(name: string, description: string, get: (row: Row, ctx: SpecContext) => boolean | null): BoolColumn<Row> {
  return { name, type: 'bool', description, get };
}

/** `<stem>_base` (exact base units) only. */
export function baseAmount<Row>(stem: string, description: string, get: (row: Row, ctx: SpecContext) => bigint | null, currency: (row: Row, ctx: SpecContext) => string | null): AmountColumn<Row> {
  return { name: `${stem}_base`, type: 'base', description: `${description} — integer base units (msats, cents, asset units); empty = unknown`, get, currency };
}

/** `<stem>_base` and `<stem>` in display units (see file comment). */
export function amount<Row>(stem: string, description: string, get: (row: Row, ctx: SpecContext) => bigint | null, currency: (row: Row, ctx: SpecContext) => string | null): [AmountColumn<Row>, AmountColumn<Row>] {
  return [
    baseAmount(stem, description, get, currency),
    { name: stem, type: 'display', description: `${description} — in display units of display_currency (BTC 11 dp, USD 2 dp, asset decimal_display); empty = unknown`, get, currency },
  ];
}

/** `<stem>` in display units only (its `_base` twin placed elsewhere with `baseAmount`). */
export function displayAmount<Row>(stem: string, description: string, get: (row: Row, ctx: SpecContext) => bigint | null, currency: (row: Row, ctx: SpecContext) => string | null): AmountColumn<Row> {
  return (amount(stem, description, get, currency) as [AmountColumn<Row>, AmountColumn<Row>])[1];
}

/**
 * `wallet_name` placed explicitly (a table that wants it before its ids); otherwise `tableColumns`
 * puts it beside `wallet_id` by itself.
 */
export function walletName<Row>(walletIdOf: (row: Row, ctx: SpecContext) => string | null): TextColumn<Row> {
  return { name: WALLET_NAME, type: 'text', description: WALLET_NAME_DESCRIPTION, width: 24, get: (row, ctx) => walletNameOf(walletIdOf(row, ctx), ctx) };
}

function walletNameOf(walletId: string | null, ctx: SpecContext): string | null {
  return walletId === null ? null : (ctx.walletNames?.get(walletId) ?? null);
}

/** `<name>` in the reporting zone and `<name>_utc`. */
export function instant<Row>(name: string, description: string, get: (row: Row, ctx: SpecContext) => UtcInstant | null): [InstantColumn<Row>, InstantColumn<Row>] {
  return [
    { name, type: 'instant', description: `${description} — in the reporting time zone`, get },
    { name: `${name}_utc`, type: 'instant_utc', description: `${description} — UTC`, get },
  ];
}

// --- columns that show a field of the row as it is ----------------------------------------

/** The fields of Row whose value is a V: the fields a column of that type may show. */
export type FieldOf<Row, V> = { [K in keyof Row]-?: Row[K] extends V ? K : never }[keyof Row] & string;

/** The stems `<x>` of Row's `<x>_base` amount fields. */
export type AmountStemOf<Row> = { [K in keyof Row]-?: K extends `${infer Stem}_base` ? (Row[K] extends bigint | null ? Stem : never) : never }[keyof Row];

type Currency<Row> = (row: Row, ctx: SpecContext) => string | null;

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/**
 * `row => row.<field>` as a function of its own per field. One closure shared by every field
 * (`row[field]`) reads through a keyed load that meets every field name: megamorphic, about twice
 * the CPU of a named load, and the report stage reads every column of every row twice (CSV and
 * XLSX). The source text is built from a field name of a row type, written in src/, that must be
 * an identifier; where code generation is off (`--disallow-code-generation-from-strings`), or for
 * any other name, the shared closure reads it.
 */
function fieldReader<Row, V>(field: keyof Row & string): (row: Row) => V {
  const shared = (row: Row): V => row[field] as V;
  if (!IDENTIFIER.test(field)) return shared;
  try {
    return new Function('row', `return row.${field};`) as (row: Row) => V;
  } catch {
    return shared;
  }
}

/**
 * The helpers above for a column named after a field of the row (src/model/ declares the stored
 * rows' fields once): the name is the field and the value is read from it, so a report column for
 * a field the row does not have, or of a type the column cannot show, fails to compile. Only the
 * report's own facts — header text, description, width, order — are written in the table spec.
 */
export function fieldColumns<Row>() {
  const read = <V>(field: keyof Row & string): ((row: Row) => V) => fieldReader<Row, V>(field);
  return {
    id: (field: FieldOf<Row, string | null>, description: string) => id<Row>(field, description, read(field)),
    code: (field: FieldOf<Row, string | null>, description: string) => code<Row>(field, description, read(field)),
    text: (field: FieldOf<Row, string | null>, description: string, width?: number) => text<Row>(field, description, read(field), width),
    list: (field: FieldOf<Row, readonly string[] | null>, description: string) => list<Row>(field, description, read(field)),
    json: (field: keyof Row & string, description: string) => json<Row>(field, description, read(field)),
    count: (field: FieldOf<Row, number | bigint | null>, description: string) => count<Row>(field, description, read(field)),
    bps: (field: FieldOf<Row, number | null>, description: string) => bps<Row>(field, description, read(field)),
    decimal: (field: FieldOf<Row, string | null>, description: string) => decimal<Row>(field, description, read(field)),
    bool: (field: FieldOf<Row, boolean | null>, description: string) => bool<Row>(field, description, read(field)),
    instant: (field: FieldOf<Row, UtcInstant | null>, description: string) => instant<Row>(field, description, read(field)),
    /** `<stem>_base` and `<stem>`, read from the field `<stem>_base` */
    amount: (stem: AmountStemOf<Row> & string, description: string, currency: Currency<Row>) => amount<Row>(stem, description, read(`${stem}_base` as keyof Row & string), currency),
    baseAmount: (stem: AmountStemOf<Row> & string, description: string, currency: Currency<Row>) => baseAmount<Row>(stem, description, read(`${stem}_base` as keyof Row & string), currency),
  };
}
