/**
 * The one sanctioned door to decimal.js: a PRIVATE clone with 100 significant digits, half-even
 * rounding and no exponent notation. decimal.js's default of 20 digits silently corrupted a
 * 1M-amount sum in our probe (docs/measurements.md#decimal-arithmetic), so the library's global
 * constructor is never used.
 *
 * Production money math is exact BigInt (rounding.ts, rate.ts, bps.ts): a rational with a named
 * rounding needs no precision budget. These decimal versions are the independent reference the
 * property tests hold the BigInt code against, and the tool for ratios meant for people.
 */
import { Decimal } from 'decimal.js';
import { type Rounding } from './rounding.js';
import { MSATS_PER_BTC } from './units.js';
import type { QuoteRate } from './rate.js';

export const DECIMAL_PRECISION = 100;

const Dec = Decimal.clone({
  precision: DECIMAL_PRECISION,
  rounding: Decimal.ROUND_HALF_EVEN,
  // never `1e+21` / `1e-7` in toString(): amounts are always plain digits
  toExpNeg: -9e15,
  toExpPos: 9e15,
});

const MODES: Record<Rounding, Decimal.Rounding> = {
  up: Decimal.ROUND_UP,
  down: Decimal.ROUND_DOWN,
  ceil: Decimal.ROUND_CEIL,
  floor: Decimal.ROUND_FLOOR,
  half_up: Decimal.ROUND_HALF_UP,
  half_down: Decimal.ROUND_HALF_DOWN,
  half_even: Decimal.ROUND_HALF_EVEN,
};

/**
 * numerator / denominator with `decimals` digits after the point, rounded as named. The quotient
 * is first computed to 100 significant digits; for operands below 10^45 the exact value can
 * only sit on a rounding boundary if it is exactly representable there, so the result is exact.
 */
export function decimalDivide(numerator: bigint, denominator: bigint, decimals: number, rounding: Rounding): string {
  if (denominator === 0n) throw new RangeError('division by zero');
  return new Dec(numerator.toString()).div(new Dec(denominator.toString())).toFixed(decimals, MODES[rounding]);
}

/** Reference for rate.ts msatsToQuoted. */
export function decimalMsatsToQuoted(msats: bigint, rate: QuoteRate, rounding: Rounding): bigint {
  const value = new Dec(msats.toString()).times(rate.coefficient.toString()).div(new Dec(10).pow(rate.scale)).div(MSATS_PER_BTC.toString());
  return BigInt(value.toFixed(0, MODES[rounding]));
}

/** Reference for rate.ts quotedToMsats. */
export function decimalQuotedToMsats(base: bigint, rate: QuoteRate, rounding: Rounding): bigint {
  const value = new Dec(base.toString()).times(new Dec(10).pow(rate.scale)).times(MSATS_PER_BTC.toString()).div(rate.coefficient.toString());
  return BigInt(value.toFixed(0, MODES[rounding]));
}

/** Reference for bps.ts feeAtBps: principal × bps / 10,000. */
export function decimalFeeAtBps(principal: bigint, basisPoints: number, rounding: Rounding): bigint {
  return BigInt(new Dec(principal.toString()).times(basisPoints).div(10_000).toFixed(0, MODES[rounding]));
}

/** Exact sum of digit strings — the reference for BigInt sums in tests. */
export function decimalSum(values: readonly bigint[]): string {
  let total = new Dec(0);
  for (const value of values) total = total.plus(value.toString());
  return total.toFixed(0);
}
