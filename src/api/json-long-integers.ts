/**
 * A page that holds integer literals beyond 2^53 (json.ts, step 3), parsed at JSON.parse's speed:
 * each such literal is rewritten as a string holding a marker and its digits, the text is parsed
 * plainly, and a walk of the result turns the markers back into integers (bigint beyond
 * ±(2^53 − 1), number within, the `WireInt` contract). The exact parser is an order of magnitude
 * slower than JSON.parse, so one huge amount made its whole page that much dearer.
 *
 * A string of the page that reads as a marker would be taken for an integer, so the walk counts
 * what it turned back: any count but the number of literals rewritten means such a string exists,
 * and the caller parses exactly (null). Malformed text also answers null, so that the exact parser
 * reports it with its position.
 */
import { endOfString } from './json-strings.js';

const MARKER = '\u0000payexport:int:';
/** the marker as JSON text inside the quotes (a raw NUL is not allowed there) */
const MARKER_JSON = '\\u0000payexport:int:';
const NUMBER = /-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/g;
const LONG_INTEGER = /^-?[1-9]\d{15,}$/;
const DIGITS = /^-?\d+$/;
const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/** An integer literal as the `WireInt` contract gives it: bigint beyond ±(2^53 − 1), number within. */
export function wireInteger(literal: string): number | bigint {
  const exact = BigInt(literal);
  return exact > MAX_SAFE || exact < -MAX_SAFE ? exact : Number(literal);
}

export function parseWithLongIntegers(text: string): unknown {
  let rewritten = '';
  let copied = 0;
  let literals = 0;
  for (let index = 0; index < text.length; ) {
    const quote = text.indexOf('"', index);
    const end = quote === -1 ? text.length : quote;
    // between strings: a 16-digit literal needs 16 characters
    if (end - index >= 16) {
      const segment = text.slice(index, end);
      NUMBER.lastIndex = 0;
      for (let match = NUMBER.exec(segment); match !== null; match = NUMBER.exec(segment)) {
        const literal = match[0];
        if (!LONG_INTEGER.test(literal)) {
          // a leading zero is not JSON: once hidden in a string, JSON.parse would not say so
          if (/^-?0\d/.test(literal)) return null;
          continue;
        }
        const at = index + match.index;
        rewritten += `${text.slice(copied, at)}"${MARKER_JSON}${literal}"`;
        copied = at + literal.length;
        literals++;
      }
    }
    if (quote === -1) break;
    index = endOfString(text, quote);
    if (index === -1) return null;
  }
  rewritten += text.slice(copied);
  let value: unknown;
  try {
    value = JSON.parse(rewritten);
  } catch {
    return null;
  }
  const count = { found: 0 };
  const restored = restore(value, count);
  return count.found === literals ? restored : null;
}

function restore(value: unknown, count: { found: number }): unknown {
  if (typeof value === 'string') return isMarked(value) ? integer(value, count) : value;
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) value[i] = restore(value[i], count);
    return value;
  }
  const record = value as Record<string, unknown>;
  for (const key in record) {
    const v = record[key];
    if (typeof v === 'string') {
      if (!isMarked(v)) continue;
      const n = integer(v, count);
      // `__proto__` is an own key JSON.parse made: assignment would set the prototype instead
      if (key === '__proto__') Object.defineProperty(record, key, { value: n, writable: true, enumerable: true, configurable: true });
      else record[key] = n;
    } else if (typeof v === 'object' && v !== null) restore(v, count);
  }
  return record;
}

function isMarked(value: string): boolean {
  return value.charCodeAt(0) === 0 && value.startsWith(MARKER);
}

/** The integer a marker holds; a marked string that is not one still counts (the page then parses exactly). */
function integer(marked: string, count: { found: number }): unknown {
  count.found++;
  const digits = marked.slice(MARKER.length);
  return DIGITS.test(digits) ? wireInteger(digits) : marked;
}
