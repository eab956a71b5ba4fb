import { describe, expect, it } from 'vitest';
import { arrayLiteral, copyField, copyLine } from '../../../../src/store/encoding/copy-text.js';

describe('COPY text format', () => {
  it.each([
    [null, '\\N'],
    ['plain', 'plain'],
    ['\\N', '\\\\N'],
    ['a\tb\nc\rd\\e', 'a\\tb\\nc\\rd\\\\e'],
    ['', ''],
  ])('field %j → %j', (value, expected) => {
    expect(copyField(value)).toBe(expected);
  });

  it('joins fields with TAB and ends the line', () => {
    expect(copyLine(['1', null, 'x y'])).toBe('1\t\\N\tx y\n');
  });
});

describe('arrayLiteral', () => {
  it('quotes every element so NULL, braces, commas and quotes stay data', () => {
    expect(arrayLiteral([])).toBe('{}');
    expect(arrayLiteral(['NULL', '{a,b}', 'say "hi"', 'back\\slash', ''])).toBe('{"NULL","{a,b}","say \\"hi\\"","back\\\\slash",""}');
  });
});
