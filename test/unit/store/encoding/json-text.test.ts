import { describe, expect, it } from 'vitest';
import { parseJsonText, toJsonText } from '../../../../src/store/encoding/json-text.js';

describe('toJsonText', () => {
  it('writes bigints as bare JSON numbers from their digits', () => {
    expect(toJsonText({ a: 2n ** 64n + 1n, b: -5n, c: [1, 'x', null] })).toBe('{"a":18446744073709551617,"b":-5,"c":[1,"x",null]}');
  });

  it('drops undefined members like JSON.stringify and escapes NUL reversibly', () => {
    expect(toJsonText({ a: undefined, 'k\u0000': 'v\u0000' })).toBe('{"k\u24000":"v\u24000"}');
  });
});

describe('parseJsonText', () => {
  it.each([
    ['9007199254740991', 9007199254740991],
    ['9007199254740993', 9007199254740993n],
    ['-9007199254740993', -9007199254740993n],
    ['2100000000000000000', 2100000000000000000n],
    ['123456789012345678901234567890', 123456789012345678901234567890n],
    ['1234567890123456.5', 1234567890123456.5],
    ['{"id": "12345678901234567890", "n": 12345678901234567890}', { id: '12345678901234567890', n: 12345678901234567890n }],
  ])('%s', (text, expected) => {
    expect(parseJsonText(text)).toEqual(expected);
  });

  it('reads the jsonb spelling (spaces after separators) the same', () => {
    expect(parseJsonText('{"a": [1, 18446744073709551617], "b": {"c": "\u2400\u2400"}}')).toEqual({ a: [1, 18446744073709551617n], b: { c: '\u2400' } });
  });
});
