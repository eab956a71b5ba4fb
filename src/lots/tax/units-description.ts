/**
 * Column (a) of Form 8949 for a digital asset: "the full name or an abbreviated symbol of the
 * digital asset and the exact units sold or disposed of" (Instructions for Form 8949 (2025),
 * Column (a)) — written "0.01234567 BTC", with at most 8 decimals, because tax software refuses
 * longer numbers (TurboTax's import: "limit your numbers to 8 decimal places"; docs/tax.md).
 *
 * BTC is shown to the satoshi (10^-8 BTC, the chain's own unit); a lightning amount can carry
 * millisatoshis, so a lot's units may be finer: they are then rounded half-even to the satoshi in
 * this text, and the exact units are in the row's `units` column and on the statement. A lot
 * smaller than one satoshi (a routing fee's share, often) rounds to nothing and says so instead:
 * "less than 0.00000001 BTC (737 msat)". An asset with more than 8 decimals is treated the same
 * way; one with 8 or fewer is always exact.
 */
import { formatBase, rescale } from '../../money/format.js';

/** the most decimals the description shows */
export const MAX_DESCRIPTION_DECIMALS = 8;

export interface UnitsOf {
  /** the symbol: BTC, or the asset's name (USDT) */
  symbol: string;
  /** digits of the base unit (BTC: 11, msats; an asset: its decimal_display) */
  scale: number;
  /** what one base unit is called when a lot is smaller than the description can show */
  baseUnitName: string;
}

export function unitsDescription(units: bigint, of: UnitsOf): string {
  const shown = Math.min(of.scale, MAX_DESCRIPTION_DECIMALS);
  if (shown === of.scale) return `${formatBase(units, of.scale)} ${of.symbol}`;
  const text = rescale(units, of.scale, shown, 'half_even');
  const smallest = 10n ** BigInt(of.scale - shown);
  if (units < smallest) return `less than ${formatBase(1n, shown)} ${of.symbol} (${units.toString()} ${of.baseUnitName})`;
  return `${text} ${of.symbol}`;
}

/** Whether the description shows the units exactly (no rounding to 8 decimals happened). */
export function unitsExact(units: bigint, of: UnitsOf): boolean {
  const extra = of.scale - MAX_DESCRIPTION_DECIMALS;
  return extra <= 0 || units % 10n ** BigInt(extra) === 0n;
}
