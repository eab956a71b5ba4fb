/**
 * Rates and ratios rendered for people, exactly (no floats): the quote rate in display units per
 * BTC, and fee ratios in basis points. Parsing of the wire rate lives in rate.ts.
 */
import { parseRate } from './rate.js';

/** coefficient / 10^shift as a plain decimal string (shift may be negative), trailing zeros kept. */
export function shiftDecimal(coefficient: bigint, shift: number): string {
  if (shift <= 0) return (coefficient * 10n ** BigInt(-shift)).toString();
  const negative = coefficient < 0n;
  const digits = (negative ? -coefficient : coefficient).toString().padStart(shift + 1, '0');
  return `${negative ? '-' : ''}${digits.slice(0, digits.length - shift)}.${digits.slice(digits.length - shift)}`;
}

/** A quote rate in display units of `quote_to` per 1 BTC (e.g. USD per BTC), given that currency's decimals. */
export function quoteRatePerBtc(raw: string, quoteToDecimals: number): string | null {
  const rate = parseRate(raw);
  return rate === null ? null : shiftDecimal(rate.coefficient, rate.scale + quoteToDecimals);
}

/**
 * numerator / denominator in basis points with `decimals` digits, rounded half away from zero
 * (explicit, docs/style.md#6-money). Null when the denominator is zero.
 */
export function ratioBps(numerator: bigint, denominator: bigint, decimals: number): string | null {
  if (denominator === 0n) return null;
  const scale = 10n ** BigInt(decimals);
  const scaled = numerator * 10_000n * scale;
  const negative = scaled < 0n !== denominator < 0n;
  const a = scaled < 0n ? -scaled : scaled;
  const b = denominator < 0n ? -denominator : denominator;
  let q = a / b;
  if ((a % b) * 2n >= b) q += 1n;
  return shiftDecimal(negative ? -q : q, decimals);
}
