/**
 * Column declarations: each row field written once, with how it is stored and whether it may be
 * null. The row types of `rows.ts` and `results.ts` are derived from these declarations, the store
 * encodes, selects and decodes by them, and the history tables and query select lists are picks of
 * them — so a field added here reaches every one of those places, and a field cannot be added to a
 * row type anywhere else (docs/design.md#boundaries, "Column definitions live once").
 */
import type { UtcInstant } from './instant.js';

/**
 * How a field is stored: the store maps each kind to one SQL type, one encoder and one decoder.
 * `id` is text compared byte for byte (the "C" collation: keys and joins); `text` is any other text.
 * `json` is stored parsed (jsonb); `jsonText` is stored as the JSON text written, which the server
 * does not parse on every write (a large payload read back whole, queried through a cast).
 */
export type ColumnKind = 'id' | 'text' | 'bigint' | 'instant' | 'bool' | 'json' | 'jsonText' | 'text[]' | 'int' | 'number';

declare const valueType: unique symbol;

/** One column: its storage kind, whether it may be null, and (for the compiler only) the row field's type. */
export interface Column<T = unknown> {
  readonly kind: ColumnKind;
  readonly nullable: boolean;
  /** never set at run time: carries the field's TypeScript type so the row type can be derived */
  readonly [valueType]?: T;
}

/** The declaration of a row: every field mapped to its column, in the order the columns are stored. */
export type Columns<R> = { readonly [K in keyof R]-?: Column<R[K]> };

/** The row type a declaration describes. */
export type RowOf<C> = { -readonly [K in keyof C]: C[K] extends Column<infer T> ? T : never };

function column<T>(kind: ColumnKind): Column<T> {
  return { kind, nullable: false };
}

/** The column builders; `nullable(...)` around one lets the field be null (= unknown, never zero). */
export const col = {
  id: <T extends string = string>(): Column<T> => column<T>('id'),
  text: <T extends string = string>(): Column<T> => column<T>('text'),
  bigint: (): Column<bigint> => column<bigint>('bigint'),
  instant: (): Column<UtcInstant> => column<UtcInstant>('instant'),
  bool: (): Column<boolean> => column<boolean>('bool'),
  json: <T>(): Column<T> => column<T>('json'),
  /** JSON kept as its text: the same value read back, no parse by the server on the way in */
  jsonText: <T>(): Column<T> => column<T>('jsonText'),
  textList: (): Column<string[]> => column<string[]>('text[]'),
  /** a safe integer (a position, a count that fits a number) */
  int: (): Column<number> => column<number>('int'),
  /** a finite decimal number (basis points) */
  number: (): Column<number> => column<number>('number'),
};

export function nullable<T>(of: Column<T>): Column<T | null> {
  return { kind: of.kind, nullable: true };
}

/** The named columns of a declaration, in the order named: a history table's or a query's select list. */
export function pickColumns<C extends object, const K extends readonly (keyof C & string)[]>(columns: C, fields: K): Pick<C, K[number]> {
  const out: Partial<Pick<C, K[number]>> = {};
  for (const field of fields) out[field] = columns[field];
  return out as Pick<C, K[number]>;
}
