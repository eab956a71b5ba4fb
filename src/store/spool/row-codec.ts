/**
 * JSON lines for rows that hold bigints (amounts) and arbitrary hostile text (memos, metadata).
 * A bigint becomes the string `#n<digits>`; a real string that starts with `#` gets one more `#`.
 * The mapping is a bijection, so any row — including a metadata value of "#n5" — round-trips exactly.
 *
 * Neither direction hands JSON a replacer or a reviver: V8 calls those back for every key, which
 * made decoding a row several times dearer than parsing it. Decoding parses plainly, then untags in
 * place. Encoding first walks the value without allocating: with nothing to tag (no bigint, no
 * string starting with `#`, no custom `toJSON` — a page's positional rows, whose amounts are plain
 * integers, row-shape.ts), it is stringified as it is; otherwise a copy tags what needs it and
 * shares every part that needs nothing.
 */

export function encodeRow(row: unknown): string {
  return rowJson(row);
}

/** One value's JSON text in the spool's encoding (a row, or a positional row's values). */
export function rowJson(value: unknown): string {
  return (nothingToTag(value) ? JSON.stringify(value) : JSON.stringify(tagged(value))) ?? 'null';
}

/** True when nothing inside needs a tag: no bigint, no `#` string and no custom `toJSON` (a walk without allocation). */
function nothingToTag(value: unknown): boolean {
  if (typeof value === 'string') return value.charCodeAt(0) !== 35;
  if (typeof value === 'bigint') return false;
  if (typeof value !== 'object' || value === null) return true;
  // a Date's toJSON gives ISO text (never `#`); any other toJSON could answer a bigint or a `#` string
  const toJson = (value as { toJSON?: unknown }).toJSON;
  if (toJson !== undefined && !(value instanceof Date)) return false;
  if (Array.isArray(value)) {
    for (const v of value) if (!nothingToTag(v)) return false;
    return true;
  }
  for (const key in value) if (!nothingToTag((value as Record<string, unknown>)[key])) return false;
  return true;
}

/** The value with its bigints and `#` strings tagged; a part that holds neither is shared, not copied. */
function tagged(value: unknown): unknown {
  if (typeof value === 'bigint') return `#n${value.toString()}`;
  if (typeof value === 'string') return value.charCodeAt(0) === 35 ? `#${value}` : value;
  if (typeof value !== 'object' || value === null || untouched(value)) return value;
  // JSON.stringify calls toJSON before a replacer sees the value: the same order here
  const toJson = (value as { toJSON?: unknown }).toJSON;
  if (typeof toJson === 'function') return tagged((toJson as () => unknown).call(value));
  if (Array.isArray(value)) return value.map(tagged);
  // no prototype: a key named `__proto__` stays a key, as in the value JSON.parse gave
  const out = Object.create(null) as Record<string, unknown>;
  for (const key of Object.keys(value)) out[key] = tagged((value as Record<string, unknown>)[key]);
  return out;
}

/** Nothing to tag anywhere inside (a walk without allocation: most nested values are plain). */
function untouched(value: object): boolean {
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return false;
  if (Array.isArray(value)) {
    for (const v of value) if (!plain(v)) return false;
    return true;
  }
  for (const key in value) if (!plain((value as Record<string, unknown>)[key])) return false;
  return true;
}

function plain(v: unknown): boolean {
  if (typeof v === 'bigint') return false;
  if (typeof v === 'string') return v.charCodeAt(0) !== 35;
  return typeof v !== 'object' || v === null || untouched(v);
}

export function decodeRow<T>(line: string): T {
  return decodeJson(line) as T;
}

/** Any value of a line's JSON text (a row, or a positional row's values), its tags undone. */
export function decodeJson(text: string): unknown {
  const value: unknown = JSON.parse(text);
  // no tagged string in the text: nothing to restore (the common case for rows without amounts)
  return text.includes('"#') ? restore(value) : value;
}

/** Undoes the tags in place, depth first. */
function restore(value: unknown): unknown {
  if (typeof value === 'string') return value.charCodeAt(0) === 35 ? untag(value) : value;
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) value[i] = restore(value[i]);
    return value;
  }
  const record = value as Record<string, unknown>;
  for (const key in record) {
    const v = record[key];
    if (typeof v === 'string') {
      // `__proto__` is an own key JSON.parse made: assignment would set the prototype instead
      if (v.charCodeAt(0) === 35) {
        if (key === '__proto__') Object.defineProperty(record, key, { value: untag(v), writable: true, enumerable: true, configurable: true });
        else record[key] = untag(v);
      }
    } else if (typeof v === 'object' && v !== null) restore(v);
  }
  return record;
}

function untag(value: string): string | bigint {
  if (value.startsWith('##')) return value.slice(1);
  if (value.startsWith('#n')) return BigInt(value.slice(2));
  throw new Error(`corrupt spool value ${JSON.stringify(value.slice(0, 20))}`);
}
