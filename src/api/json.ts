/**
 * Lossless JSON for API bodies (docs/reliability.md#api-misbehaviour-api, API-13/14): integers beyond 2^53 arrive as
 * `bigint`, safe integers as `number` (the `WireInt` contract of wire/amounts.ts), everything else as
 * JSON.parse would give it. Floats stay numbers; normalize/ rejects them where money is expected.
 *
 * Cost: JSON.parse runs at ~200 MB/s, a lossless parser at 9–18 MB/s (docs/measurements.md#json-parsing),
 * so exactness is paid for only when needed. Every integer ≥ 2^53 has at least 16 digits, so:
 *   1. no run of 16+ digits anywhere in the text → JSON.parse (the common page);
 *   2. otherwise scan the text outside string literals for an integer literal of 16+ digits
 *      (tx ids and invoices inside strings do not count) → still JSON.parse if there is none;
 *   3. otherwise rewrite those literals as marked strings, JSON.parse, and turn them back
 *      (json-long-integers.ts); the small exact parser below is the fallback when a string of the
 *      page reads as a marker, and the reporter of malformed text.
 * Node 20 has no reviver `context.source` (docs/measurements.md#json-parsing), hence our own parser.
 */

import { hasLongDigitRun } from '../util/long-digit-run.js';
import { parseWithLongIntegers, wireInteger } from './json-long-integers.js';
import { endOfString } from './json-strings.js';

/** A JSON value as this module returns it. */
export type LosslessJson = null | boolean | number | bigint | string | LosslessJson[] | { [key: string]: LosslessJson };

export class JsonSyntaxError extends SyntaxError {
  override readonly name = 'JsonSyntaxError';
  constructor(
    message: string,
    readonly position: number,
  ) {
    super(`${message} at position ${position}`);
  }
}

/** Parses JSON text; integer literals beyond ±(2^53 − 1) become bigint. Throws JsonSyntaxError. */
export function parseJson(text: string): LosslessJson {
  if (!hasLongDigitRun(text) || !hasLongIntegerLiteral(text)) {
    try {
      return JSON.parse(text) as LosslessJson;
    } catch (error) {
      throw new JsonSyntaxError((error as Error).message, -1);
    }
  }
  return (parseWithLongIntegers(text) as LosslessJson | null) ?? parseExact(text);
}

/**
 * True when an integer literal of 16+ digits occurs outside string literals. Jumps between quotes
 * with indexOf (native speed) and tests only the structural text between strings.
 */
export function hasLongIntegerLiteral(text: string): boolean {
  let index = 0;
  while (index < text.length) {
    const quote = text.indexOf('"', index);
    const end = quote === -1 ? text.length : quote;
    // a 16-digit literal needs 16 characters: most gaps between strings are `": ` or `, `
    if (end - index >= 16) {
      const structural = text.slice(index, end);
      if (hasLongDigitRun(structural) && structuralHasLongInteger(structural)) return true;
    }
    if (quote === -1) return false;
    index = endOfString(text, quote);
    if (index === -1) return false; // unterminated string: let the parser report it
  }
  return false;
}

/** A long digit run outside strings is an integer literal unless it belongs to a fraction or exponent. */
function structuralHasLongInteger(segment: string): boolean {
  const numbers = segment.match(/-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/g) ?? [];
  return numbers.some((literal) => /^-?\d{16,}$/.test(literal));
}

const NUMBER_LITERAL = /-?(?:0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/y;
const MAX_DEPTH = 512;

/** The exact parser: RFC 8259 grammar, same results as JSON.parse except for unsafe integers. */
export function parseExact(text: string): LosslessJson {
  const parser = new ExactParser(text);
  parser.skipWhitespace();
  const value = parser.value(0);
  parser.skipWhitespace();
  if (parser.index !== text.length) parser.fail('Unexpected data after JSON value');
  return value;
}

class ExactParser {
  index = 0;
  constructor(private readonly text: string) {}

  fail(message: string): never {
    throw new JsonSyntaxError(message, this.index);
  }

  skipWhitespace(): void {
    const text = this.text;
    let index = this.index;
    for (;;) {
      const c = text.charCodeAt(index);
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) index++;
      else break;
    }
    this.index = index;
  }

  value(depth: number): LosslessJson {
    if (depth > MAX_DEPTH) this.fail('JSON nested too deeply');
    const c = this.text.charCodeAt(this.index);
    if (c === 0x7b) return this.object(depth);
    if (c === 0x5b) return this.array(depth);
    if (c === 0x22) return this.string();
    if (c === 0x2d || (c >= 0x30 && c <= 0x39)) return this.number();
    if (this.text.startsWith('true', this.index)) return this.literal(4, true);
    if (this.text.startsWith('false', this.index)) return this.literal(5, false);
    if (this.text.startsWith('null', this.index)) return this.literal(4, null);
    return this.fail(Number.isNaN(c) ? 'Unexpected end of JSON input' : 'Unexpected token');
  }

  private literal<T>(length: number, value: T): T {
    this.index += length;
    return value;
  }

  private object(depth: number): { [key: string]: LosslessJson } {
    const result: { [key: string]: LosslessJson } = {};
    this.index++;
    this.skipWhitespace();
    if (this.text.charCodeAt(this.index) === 0x7d) {
      this.index++;
      return result;
    }
    for (;;) {
      if (this.text.charCodeAt(this.index) !== 0x22) this.fail('Expected a property name');
      const key = this.string();
      this.skipWhitespace();
      if (this.text.charCodeAt(this.index) !== 0x3a) this.fail("Expected ':'");
      this.index++;
      this.skipWhitespace();
      const value = this.value(depth + 1);
      // JSON.parse makes `__proto__` an own property; plain assignment would set the prototype.
      if (key === '__proto__') Object.defineProperty(result, key, { value, enumerable: true, writable: true, configurable: true });
      else result[key] = value;
      this.skipWhitespace();
      const c = this.text.charCodeAt(this.index++);
      if (c === 0x7d) return result;
      if (c !== 0x2c) this.fail("Expected ',' or '}'");
      this.skipWhitespace();
    }
  }

  private array(depth: number): LosslessJson[] {
    const result: LosslessJson[] = [];
    this.index++;
    this.skipWhitespace();
    if (this.text.charCodeAt(this.index) === 0x5d) {
      this.index++;
      return result;
    }
    for (;;) {
      result.push(this.value(depth + 1));
      this.skipWhitespace();
      const c = this.text.charCodeAt(this.index++);
      if (c === 0x5d) return result;
      if (c !== 0x2c) this.fail("Expected ',' or ']'");
      this.skipWhitespace();
    }
  }

  private string(): string {
    const start = this.index;
    const end = endOfString(this.text, start);
    if (end === -1) this.fail('Unterminated string');
    const literal = this.text.slice(start, end);
    this.index = end;
    // Escapes and control characters are rare in API strings: delegate those to JSON.parse, which
    // validates and decodes them exactly.
    if (literal.includes('\\') || hasControlCharacter(literal)) {
      try {
        return JSON.parse(literal) as string;
      } catch {
        this.index = start;
        return this.fail('Bad string');
      }
    }
    return literal.slice(1, -1);
  }

  private number(): number | bigint {
    NUMBER_LITERAL.lastIndex = this.index;
    const match = NUMBER_LITERAL.exec(this.text);
    if (!match) return this.fail('Bad number');
    const literal = match[0];
    this.index += literal.length;
    if (match[1] !== undefined || match[2] !== undefined) return Number(literal);
    if (literal.length < 16) return Number(literal);
    return wireInteger(literal);
  }
}

function hasControlCharacter(text: string): boolean {
  for (let index = 0; index < text.length; index++) if (text.charCodeAt(index) < 0x20) return true;
  return false;
}
