import { describe, expect, it } from 'vitest';
import { hasLongIntegerLiteral, JsonSyntaxError, parseExact, parseJson } from '../../../src/api/json.js';

describe('parseJson (WireInt contract: safe integers are numbers, the rest bigint)', () => {
  it.each<[string, unknown]>([
    ['{"amount": 2100000000000000001}', { amount: 2100000000000000001n }],
    ['{"amount": 9007199254740993}', { amount: 9007199254740993n }],
    ['{"amount": 9007199254740991}', { amount: 9007199254740991 }], // 2^53 - 1: safe, a number
    ['{"amount": -9007199254740993}', { amount: -9007199254740993n }],
    ['{"amount": 1000000000000000}', { amount: 1000000000000000 }], // 16 digits but safe
    ['[18446744073709551616, 1, -0]', [18446744073709551616n, 1, -0]],
    // floats stay numbers, rounded exactly as JSON.parse rounds them
    ['{"f": 12345678901234567.5}', { f: Number('12345678901234567.5') }],
    ['{"e": 12345678901234567e2}', { e: Number('12345678901234567e2') }],
    ['{"big": 99999999999999999999999999999999999999}', { big: 99999999999999999999999999999999999999n }],
    ['{"tx": "12345678901234567890", "n": 5}', { tx: '12345678901234567890', n: 5 }], // digits in strings stay strings
    ['{"s": "a\\"12345678901234567890\\"b", "n": 12345678901234567890}', { s: 'a"12345678901234567890"b', n: 12345678901234567890n }],
    ['{"s": "\\\\", "n": 12345678901234567890}', { s: '\\', n: 12345678901234567890n }],
    ['{"u": "\\u00e9\\ud83d\\ude00", "n": 12345678901234567890}', { u: 'é😀', n: 12345678901234567890n }],
    ['  {"a": [true, false, null, {}, []]}  ', { a: [true, false, null, {}, []] }],
  ])('%s', (text, expected) => {
    expect(parseJson(text)).toEqual(expected);
  });

  it('keeps __proto__ as an own property, as JSON.parse does', () => {
    const value = parseExact('{"__proto__": {"polluted": 1}, "n": 12345678901234567890}') as Record<string, unknown>;
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.hasOwn(value, '__proto__')).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it.each([
    '{"a": 12345678901234567890',
    '{"a": 012345678901234567890}',
    '{"a": 12345678901234567890,}',
    '[12345678901234567890] x',
    '{"a": "unterminated 12345678901234567890}',
    '{a: 12345678901234567890}',
    '[-]',
    '',
    '{"items": [',
  ])('rejects %j with JsonSyntaxError', (text) => {
    expect(() => parseJson(text)).toThrow(JsonSyntaxError);
  });
});

describe('hasLongIntegerLiteral (the fast-path scan)', () => {
  it.each<[string, boolean]>([
    ['{"a": 1234567890123456}', true],
    ['{"a": -1234567890123456}', true],
    ['{"a": "1234567890123456"}', false],
    ['{"a": 1234567890123456.5}', false],
    ['{"a": 1.1234567890123456}', false],
    ['{"a": 1e1234567890123456}', false],
    ['{"a": "x\\"", "b": 1234567890123456}', true],
    ['{"a": "x\\\\", "b": 123456789012345}', false],
  ])('%s → %s', (text, expected) => {
    expect(hasLongIntegerLiteral(text)).toBe(expected);
  });
});
