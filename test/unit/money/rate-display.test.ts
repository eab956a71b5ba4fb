import fc from 'fast-check';
import { Decimal } from 'decimal.js';
import { describe, expect, it } from 'vitest';
import { quoteRatePerBtc, ratioBps, shiftDecimal } from '../../../src/money/rate-display.js';

const D = Decimal.clone({ precision: 80, rounding: Decimal.ROUND_HALF_UP });

describe('quote rates', () => {
  it('converts to display units per BTC exactly', () => {
    // 651234500 / 10^2 cents per BTC = 6512345 cents = 65123.45 USD
    expect(quoteRatePerBtc('651234500e2', 2)).toBe('65123.4500');
    expect(quoteRatePerBtc('12e-3', 2)).toBeNull();
  });

  it('shifts decimals without floats', () => {
    expect(shiftDecimal(-5n, 3)).toBe('-0.005');
    expect(shiftDecimal(123n, 0)).toBe('123');
  });
});

describe('ratioBps', () => {
  it('rounds half away from zero to the asked decimals', () => {
    expect(ratioBps(25n, 10_000n, 2)).toBe('25.00');
    expect(ratioBps(1n, 3n, 2)).toBe('3333.33');
    expect(ratioBps(2n, 3n, 2)).toBe('6666.67');
    expect(ratioBps(-2n, 3n, 2)).toBe('-6666.67');
    expect(ratioBps(1n, 0n, 2)).toBeNull();
  });

  it('agrees with decimal.js at 80 digits (property)', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 20n), max: 10n ** 20n }), fc.bigInt({ min: 1n, max: 10n ** 20n }), (num, den) => {
        const expected = new D(num.toString()).times(10_000).div(den.toString()).toFixed(2, Decimal.ROUND_HALF_UP);
        expect(ratioBps(num, den, 2)).toBe(expected === '-0.00' ? '0.00' : expected);
      }),
    );
  });
});
