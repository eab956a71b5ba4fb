/**
 * Integer division with a named rounding mode. Every division of money in this project goes
 * through here (or through the decimal.js clone in decimal.ts), so no rounding is implicit
 * (docs/style.md#6-money; BigInt's own `/` truncates toward zero, which is rarely what a ledger wants).
 */

/** The rounding modes we name. `half_even` is banker's rounding (IEEE 754 default, decimal.js ROUND_HALF_EVEN). */
export const ROUNDING_MODES = ['floor', 'ceil', 'down', 'up', 'half_up', 'half_down', 'half_even'] as const;
export type Rounding = (typeof ROUNDING_MODES)[number];

/**
 * `numerator / denominator` rounded to an integer with `mode`.
 * - floor / ceil: toward −∞ / +∞
 * - down / up: toward zero / away from zero
 * - half_*: to the nearest integer; ties away from zero (half_up), toward zero (half_down) or to even (half_even)
 */
export function divRound(numerator: bigint, denominator: bigint, mode: Rounding): bigint {
  if (denominator === 0n) throw new RangeError('division by zero');
  if (denominator < 0n) {
    numerator = -numerator;
    denominator = -denominator;
  }
  const quotient = numerator / denominator; // truncated toward zero
  const remainder = numerator % denominator; // same sign as numerator
  if (remainder === 0n) return quotient;
  const negative = numerator < 0n;
  // The exact value lies strictly between `quotient` and `quotient ± 1`.
  const awayFromZero = negative ? quotient - 1n : quotient + 1n;
  switch (mode) {
    case 'down':
      return quotient;
    case 'up':
      return awayFromZero;
    case 'floor':
      return negative ? awayFromZero : quotient;
    case 'ceil':
      return negative ? quotient : awayFromZero;
    case 'half_up':
    case 'half_down':
    case 'half_even': {
      const twice = 2n * (negative ? -remainder : remainder);
      if (twice > denominator) return awayFromZero;
      if (twice < denominator) return quotient;
      if (mode === 'half_up') return awayFromZero;
      if (mode === 'half_down') return quotient;
      return quotient % 2n === 0n ? quotient : awayFromZero;
    }
  }
}

/** 10^exponent as a bigint. */
export function pow10(exponent: number): bigint {
  if (!Number.isSafeInteger(exponent) || exponent < 0) throw new RangeError(`exponent must be a non-negative integer, got ${exponent}`);
  return 10n ** BigInt(exponent);
}

/** |value| */
export function absBig(value: bigint): bigint {
  return value < 0n ? -value : value;
}
