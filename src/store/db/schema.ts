/**
 * The snapshot's schema name (default `payexport`, configurable), always used as a quoted
 * identifier: the only SQL text built from a value, and quoting makes any name safe.
 */
export interface StoreSchema {
  readonly name: string;
  /** the quoted identifier, e.g. `"payexport"` */
  readonly quoted: string;
  /** a schema-qualified table name, e.g. `"payexport"."payments"` */
  table(name: string): string;
}

export const DEFAULT_SCHEMA = 'payexport';

/** PostgreSQL truncates identifiers to 63 bytes (NAMEDATALEN − 1); refuse rather than alias two schemas. */
const MAX_IDENTIFIER_BYTES = 63;

export function quoteIdent(name: string): string {
  if (name === '' || name.includes('\u0000') || Buffer.byteLength(name, 'utf8') > MAX_IDENTIFIER_BYTES) {
    throw new RangeError(`not a usable PostgreSQL identifier: ${JSON.stringify(name)}`);
  }
  return `"${name.replace(/"/g, '""')}"`;
}

export function storeSchema(name: string = DEFAULT_SCHEMA): StoreSchema {
  const quoted = quoteIdent(name);
  return { name, quoted, table: (table: string) => `${quoted}.${quoteIdent(table)}` };
}
