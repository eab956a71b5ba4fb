/**
 * PostgreSQL's COPY text format (docs: COPY, "Text Format"): one line per row, fields separated
 * by TAB, `\N` for NULL, and backslash escapes for backslash, newline, carriage return and tab.
 * Field values are the types' input text (numeric digits, RFC 3339 instants, array literals,
 * JSON text), so the same encoders feed COPY and the `unnest` fallback.
 */
const COPY_SPECIAL = /[\\\n\r\t]/;
const COPY_SPECIAL_ALL = /[\\\n\r\t]/g;
const COPY_ESCAPES: Record<string, string> = { '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t' };

export function copyField(value: string | null): string {
  if (value === null) return '\\N';
  return COPY_SPECIAL.test(value) ? value.replace(COPY_SPECIAL_ALL, (ch) => COPY_ESCAPES[ch] ?? ch) : value;
}

export function copyLine(fields: readonly (string | null)[]): string {
  let line = '';
  for (let index = 0; index < fields.length; index++) line += (index === 0 ? '' : '\t') + copyField(fields[index] ?? null);
  return line + '\n';
}

/**
 * A text[] literal with every element double-quoted (so `NULL`, commas, braces and spaces stay
 * data): `{"a","b \"c\""}`. Elements must already be NUL-escaped.
 */
export function arrayLiteral(items: readonly string[]): string {
  if (items.length === 0) return '{}';
  return `{${items.map((item) => `"${item.replace(/["\\]/g, '\\$&')}"`).join(',')}}`;
}
