/**
 * JSON for the simulator's wire: amounts above 2^53 are `bigint` in memory and are written as
 * exact JSON integers (`9007199254740993`, never `9007199254740992` and never a string), the way
 * the real service's Rust serializer writes u64/i64. `JSON.stringify` throws on bigint, hence our own.
 */

export function stringifyJson(value: unknown): string {
  try {
    return JSON.stringify(value);
  } catch (error) {
    if (!(error instanceof TypeError)) throw error;
  }
  // Bigint path: native JSON.stringify with bigints turned into marker strings, then the markers
  // replaced by their digits. If any string in the value happened to look like a marker, the
  // counts disagree and we fall back to the exact (slower) writer.
  let bigints = 0;
  const text = JSON.stringify(value, (_key, v: unknown) => {
    if (typeof v !== 'bigint') return v;
    bigints++;
    return `${BIGINT_MARK}${v.toString()}`;
  });
  if (bigints === 0) return text;
  let replaced = 0;
  const out = text.replace(BIGINT_MARK_RE, (_m, digits: string) => {
    replaced++;
    return digits;
  });
  if (replaced === bigints) return out;
  const parts: string[] = [];
  write(value, parts);
  return parts.join('');
}

/**
 * A page envelope `{"items":[…], …rest}` with each item serialized on its own, so one item with a
 * bigint does not push the whole page onto the slow path.
 */
export function stringifyPage(items: readonly unknown[], rest: Record<string, unknown>): string {
  const tail = stringifyJson(rest);
  const itemsJson = `"items":[${items.map(stringifyJson).join(',')}]`;
  return tail === '{}' ? `{${itemsJson}}` : `{${itemsJson},${tail.slice(1)}`;
}

const BIGINT_MARK = '\u0000~bigint~';
const BIGINT_MARK_RE = /"\\u0000~bigint~(-?\d+)"/g;

function write(value: unknown, out: string[]): void {
  switch (typeof value) {
    case 'string':
      out.push(JSON.stringify(value));
      return;
    case 'number':
      if (!Number.isFinite(value)) throw new TypeError(`cannot serialize ${value} as JSON`);
      out.push(String(value));
      return;
    case 'bigint':
      out.push(value.toString());
      return;
    case 'boolean':
      out.push(value ? 'true' : 'false');
      return;
    case 'object':
      if (value === null) {
        out.push('null');
        return;
      }
      if (Array.isArray(value)) {
        out.push('[');
        for (let i = 0; i < value.length; i++) {
          if (i > 0) out.push(',');
          const item: unknown = value[i];
          write(item === undefined ? null : item, out);
        }
        out.push(']');
        return;
      }
      {
        out.push('{');
        let first = true;
        for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
          if (item === undefined) continue;
          if (!first) out.push(',');
          first = false;
          out.push(JSON.stringify(key), ':');
          write(item, out);
        }
        out.push('}');
      }
      return;
    default:
      throw new TypeError(`cannot serialize a ${typeof value} as JSON`);
  }
}

export class JsonSyntaxError extends Error {
  override readonly name = 'JsonSyntaxError';
}

/**
 * JSON.parse, except that integers outside the safe range come back as `bigint` (exact) and
 * `-0`/fractions/exponents stay numbers. Used for request bodies and by tests reading responses.
 */
export function parseJsonLossless(text: string): unknown {
  const reader = new LosslessReader(text);
  const value = reader.value();
  reader.skipWs();
  if (reader.pos !== text.length) reader.fail('trailing characters');
  return value;
}

/** A recursive-descent reader over one text; `pos` is where it stands. */
class LosslessReader {
  pos = 0;

  constructor(private readonly text: string) {}

  fail(what: string): never {
    throw new JsonSyntaxError(`${what} at position ${this.pos}`);
  }

  skipWs(): void {
    const { text } = this;
    while (this.pos < text.length) {
      const c = text.charCodeAt(this.pos);
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) this.pos++;
      else break;
    }
  }

  value(): unknown {
    this.skipWs();
    const c = this.text[this.pos];
    if (c === '{') return this.object();
    if (c === '[') return this.array();
    if (c === '"') return this.string();
    if (c === '-' || (c !== undefined && c >= '0' && c <= '9')) return this.number();
    for (const [word, literal] of LITERALS) {
      if (this.text.startsWith(word, this.pos)) {
        this.pos += word.length;
        return literal;
      }
    }
    return this.fail('unexpected token');
  }

  private string(): string {
    const { text } = this;
    const start = this.pos;
    this.pos++; // opening quote
    let simple = true;
    while (this.pos < text.length) {
      const c = text.charCodeAt(this.pos);
      if (c === 0x22) break;
      if (c === 0x5c) {
        simple = false;
        this.pos += 2;
        continue;
      }
      if (c < 0x20) this.fail('control character in string');
      this.pos++;
    }
    if (this.pos >= text.length) this.fail('unterminated string');
    this.pos++;
    const raw = text.slice(start, this.pos);
    return simple ? raw.slice(1, -1) : (JSON.parse(raw) as string);
  }

  private number(): number | bigint {
    const m = /^-?(?:0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(this.text.slice(this.pos, this.pos + 400));
    if (!m) return this.fail('invalid number');
    this.pos += m[0].length;
    if (m[1] === undefined && m[2] === undefined) {
      const n = Number(m[0]);
      return Number.isSafeInteger(n) ? n : BigInt(m[0]);
    }
    return Number(m[0]);
  }

  private object(): Record<string, unknown> {
    const obj: Record<string, unknown> = {};
    this.pos++;
    this.skipWs();
    if (this.closes('}')) return obj;
    for (;;) {
      this.skipWs();
      if (this.text[this.pos] !== '"') this.fail('expected a key');
      const key = this.string();
      this.skipWs();
      if (this.text[this.pos] !== ':') this.fail("expected ':'");
      this.pos++;
      // defineProperty: a key named __proto__ is data, never the object's prototype
      Object.defineProperty(obj, key, { value: this.value(), enumerable: true, writable: true, configurable: true });
      if (this.afterItem('}')) return obj;
    }
  }

  private array(): unknown[] {
    const arr: unknown[] = [];
    this.pos++;
    this.skipWs();
    if (this.closes(']')) return arr;
    for (;;) {
      arr.push(this.value());
      if (this.afterItem(']')) return arr;
    }
  }

  /** Steps over `close` when it stands here. */
  private closes(close: string): boolean {
    if (this.text[this.pos] !== close) return false;
    this.pos++;
    return true;
  }

  /** After an item: true at the closing bracket, false after a comma (another item follows). */
  private afterItem(close: string): boolean {
    this.skipWs();
    if (this.text[this.pos] === ',') {
      this.pos++;
      return false;
    }
    if (this.closes(close)) return true;
    return this.fail(`expected ',' or '${close}'`);
  }
}

const LITERALS: ReadonlyArray<readonly [string, boolean | null]> = [
  ['true', true],
  ['false', false],
  ['null', null],
];
