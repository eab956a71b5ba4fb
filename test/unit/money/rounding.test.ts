import { describe, expect, it } from 'vitest';
import { divRound, type Rounding } from '../../../src/money/rounding.js';

// value / 10 for values whose tenths are .5, .4, .6 and their negatives.
const table: Array<[bigint, Record<Rounding, bigint>]> = [
  [25n, { floor: 2n, ceil: 3n, down: 2n, up: 3n, half_up: 3n, half_down: 2n, half_even: 2n }],
  [35n, { floor: 3n, ceil: 4n, down: 3n, up: 4n, half_up: 4n, half_down: 3n, half_even: 4n }],
  [24n, { floor: 2n, ceil: 3n, down: 2n, up: 3n, half_up: 2n, half_down: 2n, half_even: 2n }],
  [26n, { floor: 2n, ceil: 3n, down: 2n, up: 3n, half_up: 3n, half_down: 3n, half_even: 3n }],
  [-25n, { floor: -3n, ceil: -2n, down: -2n, up: -3n, half_up: -3n, half_down: -2n, half_even: -2n }],
  [-35n, { floor: -4n, ceil: -3n, down: -3n, up: -4n, half_up: -4n, half_down: -3n, half_even: -4n }],
  [-24n, { floor: -3n, ceil: -2n, down: -2n, up: -3n, half_up: -2n, half_down: -2n, half_even: -2n }],
  [30n, { floor: 3n, ceil: 3n, down: 3n, up: 3n, half_up: 3n, half_down: 3n, half_even: 3n }],
];

describe('divRound', () => {
  for (const [value, expected] of table) {
    for (const [mode, result] of Object.entries(expected) as Array<[Rounding, bigint]>) {
      it(`${value} / 10 (${mode}) = ${result}`, () => {
        expect(divRound(value, 10n, mode)).toBe(result);
        // a negative denominator is the same division
        expect(divRound(-value, -10n, mode)).toBe(result);
      });
    }
  }
  it('refuses division by zero', () => {
    expect(() => divRound(1n, 0n, 'floor')).toThrow(RangeError);
  });
});
