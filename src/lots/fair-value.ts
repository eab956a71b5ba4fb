/**
 * Fair value at a period boundary, by the journal's remeasurement rule (remeasurement.ts): units
 * at the price file's last price at or before the instant, rounded once with the journal's
 * rounding. A period-end mark is a market price, not one payment's quote. Null without a price.
 */
import type { BuildContext } from '../journal/build-movement.js';
import { divRound } from '../money/rounding.js';

export function fairValueAt(ctx: BuildContext, currency: string, units: bigint, at: string): bigint | null {
  if (units === 0n) return 0n;
  const point = ctx.valuation.prices.get(currency)?.at(at) ?? null;
  const perWhole = ctx.valuation.baseUnitsPerWhole(currency);
  if (point === null || perWhole === null) return null;
  const minor = 10n ** BigInt(ctx.config.minorUnits);
  return divRound(units * point.digits * minor, 10n ** BigInt(point.decimals) * perWhole, ctx.config.rounding);
}
