import { escapeText, hasEscapes, unescapeText } from './text-escape.js';
import { hasLongDigitRun } from '../../util/long-digit-run.js';

/**
 * JSON text for jsonb columns (and JSON kept as text), exact for integers beyond 2^53 in both directions.
 *
 * Writing: a `bigint` is emitted as a bare JSON number from its decimal digits (never through
 * Number), and every string and key goes through `escapeText` (jsonb refuses U+0000).
 * Reading: jsonb output is parsed with JSON.parse, except that integer literals outside the safe
 * range come back as `bigint` — the same shape the lossless API parser produces (src/api/wire/amounts.ts
 * `WireInt`), so a raw object reads back deep-equal to the one written.
 */
export function toJsonText(value: unknown): string {
  // Fast path: plain JSON.stringify, which throws on a bigint, and whose output
  // shows any character escapeText would change (U+0000 and lone surrogates come out as `\u`
  // escapes, U+2400 as itself). A false alarm (another control character, or a literal
  // backslash-u) only costs the slow path, never correctness.
  let fast: string | undefined;
  try {
    fast = JSON.stringify(value);
  } catch {
    fast = undefined;
  }
  if (fast !== undefined && !fast.includes('\\u') && !fast.includes('\u2400')) return fast;
  const out = write(value);
  if (out === undefined) throw new TypeError('value is not representable as JSON');
  return out;
}

function write(value: unknown): string | undefined {
  switch (typeof value) {
    case 'string':
      return JSON.stringify(escapeText(value));
    case 'number':
      return Number.isFinite(value) ? JSON.stringify(value) : 'null';
    case 'bigint':
      return value.toString();
    case 'boolean':
      return value ? 'true' : 'false';
    case 'undefined':
    case 'function':
    case 'symbol':
      return undefined;
    case 'object':
      break;
  }
  if (value === null) return 'null';
  const withToJson = value as { toJSON?: () => unknown };
  if (typeof withToJson.toJSON === 'function') return write(withToJson.toJSON());
  if (Array.isArray(value)) {
    return `[${value.map((item: unknown) => write(item) ?? 'null').join(',')}]`;
  }
  const parts: string[] = [];
  for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
    const text = write(item);
    if (text !== undefined) parts.push(`${JSON.stringify(escapeText(key))}:${text}`);
  }
  return `{${parts.join(',')}}`;
}

/** Marks a big integer during parsing; jsonb text can never contain U+0000, so no string collides. */
const BIG_MARK = '\u0000';
const TOKENS = /"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/g;

function markBigIntegers(text: string): string {
  return text.replace(TOKENS, (token) => {
    if (token.charCodeAt(0) === 34 /* " */ || token.length < 16 || /[.eE]/.test(token)) return token;
    return Number.isSafeInteger(Number(token)) ? token : `"\\u0000${token}"`;
  });
}

function revive(_key: string, value: unknown): unknown {
  if (typeof value === 'string') {
    if (value.charCodeAt(0) === 0) return BigInt(value.slice(BIG_MARK.length));
    return unescapeText(value);
  }
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    const entries = Object.entries(value as Record<string, unknown>);
    if (entries.some(([key]) => hasEscapes(key))) {
      return Object.fromEntries(entries.map(([key, item]) => [unescapeText(key), item]));
    }
  }
  return value;
}

/** Parses jsonb output text (see file comment); `null` text (SQL NULL) is handled by the caller. */
export function parseJsonText(text: string): unknown {
  const big = hasLongDigitRun(text);
  if (!big && !hasEscapes(text)) return JSON.parse(text);
  return JSON.parse(big ? markBigIntegers(text) : text, revive);
}
