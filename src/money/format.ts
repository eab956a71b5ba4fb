/**
 * Exact decimal rendering of integer base units. Pure BigInt/string work: 3–12M ops/s here,
 * against ~0.4M for decimal.js (docs/measurements.md#decimal-arithmetic), and no rounding at all
 * because shifting the point by `scale` digits is exact. Showing fewer digits than the unit has
 * (BTC to the sat, 8 digits, from msats) is a division and names its rounding.
 */
import type { Money } from './money.js';
import { divRound, pow10, type Rounding } from './rounding.js';
import { displayScale } from './units.js';

/** `base` shifted `scale` digits right, e.g. (150000n, 11) → "0.00000150000"; always plain digits, never `1e-8`. */
export function formatBase(base: bigint, scale: number): string {
  if (!Number.isInteger(scale) || scale < 0) throw new RangeError(`scale must be a non-negative integer, got ${scale}`);
  const negative = base < 0n;
  const digits = (negative ? -base : base).toString();
  if (scale === 0) return (negative ? '-' : '') + digits;
  const padded = digits.padStart(scale + 1, '0');
  const whole = padded.slice(0, padded.length - scale);
  const fraction = padded.slice(padded.length - scale);
  return `${negative ? '-' : ''}${whole}.${fraction}`;
}

/** Base units as the digit string the CSV contract wants (`*_base` columns): "-1500", never "1.5e3". */
export function baseDigits(base: bigint | null): string {
  return base === null ? '' : base.toString();
}

/**
 * `base` (at `scale` digits) shown with `decimals` digits. More digits than the unit has are exact
 * (zeros appended); fewer digits round with `rounding`, which the caller must name.
 */
export function rescale(base: bigint, scale: number, decimals: number, rounding: Rounding): string {
  if (!Number.isInteger(decimals) || decimals < 0) throw new RangeError(`decimals must be a non-negative integer, got ${decimals}`);
  if (decimals >= scale) return formatBase(base * pow10(decimals - scale), decimals);
  return formatBase(divRound(base, pow10(scale - decimals), rounding), decimals);
}

export interface DisplayOptions {
  /** digits after the point; default: the unit's own (BTC 11, USD 2, asset `decimal_display`) */
  decimals?: number;
  /** how to round when `decimals` is below the unit's own: required, never implicit */
  rounding: Rounding;
  /** `asset:<hex>` → decimal_display, from the assets endpoint */
  assetDecimals?: ReadonlyMap<string, number>;
}

/**
 * An amount in display units: msats → BTC, cents → USD, asset base units → whole asset units.
 * Returns null when the scale is unknown (an asset missing from the assets list): show base units then.
 */
export function toDisplay(amount: Money, options: DisplayOptions): string | null {
  const scale = displayScale(amount.currency, options.assetDecimals);
  if (scale === null) return null;
  return rescale(amount.base, scale, options.decimals ?? scale, options.rounding);
}

/** msats as BTC with 8 digits (sat precision) — the usual accounting display — rounded as named. */
export function msatsToBtcSatPrecision(msats: bigint, rounding: Rounding): string {
  return rescale(msats, 11, 8, rounding);
}

const DECIMAL = /^(-?)(0|[1-9][0-9]*)(?:\.([0-9]+))?$/;

/**
 * The inverse of formatBase: a plain decimal string (no exponent, no separators, no `+`) at
 * `scale` digits → base units. More fraction digits than `scale` are an error unless a rounding is
 * named (then they are rounded). Throws RangeError with the offending text.
 */
export function parseDecimalToBase(text: string, scale: number, rounding?: Rounding): bigint {
  const m = DECIMAL.exec(text);
  if (!m) throw new RangeError(`not a plain decimal number: ${JSON.stringify(text.slice(0, 40))}`);
  const [, sign = '', whole = '0', fraction = ''] = m;
  let base: bigint;
  if (fraction.length <= scale) {
    base = BigInt(whole + fraction.padEnd(scale, '0'));
  } else {
    if (rounding === undefined) throw new RangeError(`${text} has more than ${scale} decimal digits`);
    base = divRound(BigInt(whole + fraction), pow10(fraction.length - scale), rounding);
  }
  return sign === '-' ? -base : base;
}

/**
 * A plain decimal string with thousands separators in its whole part, for display only (fees.html,
 * the terminal): "-1234567.50" → "-1,234,567.50". Files that are read back keep plain digits.
 */
export function groupThousands(plain: string): string {
  const match = /^(-?)(\d+)(\.\d+)?$/.exec(plain);
  if (match === null) return plain;
  const [, sign, whole, fraction] = match as unknown as [string, string, string, string | undefined];
  return `${sign}${whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}${fraction ?? ''}`;
}
