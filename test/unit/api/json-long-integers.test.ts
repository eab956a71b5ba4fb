/**
 * The JSON.parse path for pages with integers beyond 2^53 (src/api/json-long-integers.ts): the
 * same value as the exact parser, or null when it cannot be sure (a string that reads as its
 * marker, malformed text), so that parseJson falls back to the exact parser.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseExact, parseJson } from '../../../src/api/json.js';
import { parseWithLongIntegers } from '../../../src/api/json-long-integers.js';

describe('parseWithLongIntegers', () => {
  it('gives what the exact parser gives, bigints beyond 2^53 and numbers within', () => {
    const text = '{"a": 12345678901234567890, "b": [-9007199254740993, 1000000000000000, 1.5], "c": {"__proto__": 9007199254740993}, "s": "12345678901234567890"}';
    const value = parseWithLongIntegers(text) as Record<string, unknown>;
    expect(value).toEqual(parseExact(text));
    expect(value.a).toBe(12345678901234567890n);
    expect((value.b as unknown[])[1]).toBe(1000000000000000);
    expect(Object.getPrototypeOf(value.c)).toBe(Object.prototype);
    expect(Object.keys(value.c as object)).toEqual(['__proto__']);
  });

  it('answers null when a string of the page reads as its marker, and parseJson is still exact', () => {
    const text = '{"note": "\\u0000payexport:int:5", "amount": 12345678901234567890}';
    expect(parseWithLongIntegers(text)).toBeNull();
    expect(parseJson(text)).toEqual({ note: '\u0000payexport:int:5', amount: 12345678901234567890n });
  });

  it('answers null for malformed text, so that the exact parser reports where', () => {
    expect(parseWithLongIntegers('{"a": 012345678901234567}')).toBeNull();
    expect(parseWithLongIntegers('{"a": 12345678901234567890,}')).toBeNull();
    expect(() => parseJson('{"a": 012345678901234567}')).toThrow(/position \d+/);
  });

  it('agrees with the exact parser on pages of amounts and marker-like strings (property)', () => {
    const amount = fc.bigInt({ min: -(10n ** 25n), max: 10n ** 25n });
    const text = fc.oneof(fc.string(), fc.constantFrom('\u0000payexport:int:', '\u0000payexport:int:7', '123456789012345678'));
    const item = fc.record({ id: text, amount, fee: fc.oneof(amount, fc.constant(null)), memo: text });
    fc.assert(
      fc.property(fc.array(item, { maxLength: 8 }), (items) => {
        const page = `{"items": [${items.map((i) => `{"id": ${JSON.stringify(i.id)}, "amount": ${i.amount}, "fee": ${i.fee === null ? 'null' : i.fee}, "memo": ${JSON.stringify(i.memo)}}`).join(', ')}], "next": null}`;
        const fast = parseWithLongIntegers(page);
        if (fast !== null) expect(fast).toEqual(parseExact(page));
        expect(parseJson(page)).toEqual(parseExact(page));
      }),
      { numRuns: 500 },
    );
  });
});
