/**
 * The one largest-remainder split (src/money/largest-remainder.ts) that the journal's legs and a
 * leg's relief lines both use: the parts sum exactly to the total, none moves a whole unit from its
 * exact share, the extra units go to the largest remainders (ties to the earlier part), and a total
 * the remainders cannot reach is refused.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { splitByLargestRemainder } from '../../../src/money/largest-remainder.js';

describe('splitByLargestRemainder', () => {
  it('gives the extra units to the largest remainders, ties to the earlier part', () => {
    // exact shares 3.5, 3.25, 3.25 of 10
    expect(splitByLargestRemainder([14n, 13n, 13n], 4n, 10n)).toEqual([4n, 3n, 3n]);
    // 10 over three equal weights: 3.33… each, the one unit left to the first
    expect(splitByLargestRemainder([10n, 10n, 10n], 3n, 10n)).toEqual([4n, 3n, 3n]);
    // the exact sum rounded down: nothing to add
    expect(splitByLargestRemainder([14n, 13n, 13n], 4n, 9n)).toEqual([3n, 3n, 3n]);
  });

  it('refuses a total the remainders cannot reach', () => {
    expect(() => splitByLargestRemainder([14n, 13n, 13n], 4n, 13n)).toThrow(/left 1 unit/);
    expect(() => splitByLargestRemainder([14n, 13n, 13n], 4n, 8n)).toThrow(/left -1 unit/);
    expect(() => splitByLargestRemainder([1n], 0n, 0n)).toThrow(RangeError);
  });

  it('sums exactly to the exact sum rounded either way, no part a whole unit from its share', () => {
    fc.assert(
      fc.property(fc.array(fc.bigInt({ min: 0n, max: 10n ** 15n }), { minLength: 1, maxLength: 8 }), fc.bigInt({ min: 1n, max: 10n ** 9n }), fc.boolean(), (numerators, den, up) => {
        const sum = numerators.reduce((a, b) => a + b, 0n);
        const total = sum / den + (up && sum % den !== 0n ? 1n : 0n);
        const parts = splitByLargestRemainder(numerators, den, total);
        expect(parts.reduce((a, b) => a + b, 0n)).toBe(total);
        parts.forEach((p, i) => {
          const n = numerators[i] as bigint;
          // p·den within (n − den, n + den): less than one unit from the exact share
          expect(p * den > n - den && p * den < n + den).toBe(true);
        });
      }),
      { numRuns: 500 },
    );
  });
});
