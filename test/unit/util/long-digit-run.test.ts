import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hasLongDigitRun } from '../../../src/util/long-digit-run.js';

const REGEX = /\d{16}/;

/** Texts made of digit runs of every length around 16 between other characters, at every offset mod 8. */
const pieces = fc.array(
  fc.oneof(
    fc.integer({ min: 1, max: 40 }).map((n) => '7'.repeat(n)),
    fc.stringMatching(/^[0-9]{1,20}$/),
    fc.constantFrom('"', ',', ':', '-', '.', 'e', ' ', 'a', '٣', '\u0000', '{"amount":', '2026-10-01T06:00:00.123456Z'),
    fc.string({ maxLength: 10 }),
  ),
  { maxLength: 30 },
);

describe('hasLongDigitRun', () => {
  it('answers as /\\d{16}/ does on texts of digit runs of every length and offset', () => {
    fc.assert(
      fc.property(pieces, fc.nat(7), (parts, pad) => {
        const text = `${'x'.repeat(pad)}${parts.join('')}`;
        expect(hasLongDigitRun(text)).toBe(REGEX.test(text));
      }),
      { numRuns: 5000 },
    );
  });

  it('finds a run of exactly 16 at every offset and misses a run of 15', () => {
    for (let offset = 0; offset < 24; offset++) {
      for (const tail of ['', 'x', 'xxxxxxxxx']) {
        expect(hasLongDigitRun(`${'a'.repeat(offset)}${'1'.repeat(16)}${tail}`)).toBe(true);
        expect(hasLongDigitRun(`${'a'.repeat(offset)}${'1'.repeat(15)}${tail}`)).toBe(false);
        // two runs of 15 split by one character are not a run of 16
        expect(hasLongDigitRun(`${'a'.repeat(offset)}${'1'.repeat(15)}.${'2'.repeat(15)}${tail}`)).toBe(false);
      }
    }
  });

  it('does not take other scripts’ digits for ASCII digits (\\d without the u flag)', () => {
    expect(hasLongDigitRun('٣'.repeat(20))).toBe(false);
    expect(hasLongDigitRun('１'.repeat(20))).toBe(false);
  });
});
