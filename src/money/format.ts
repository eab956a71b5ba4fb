/**
 * Exact decimal rendering of integer base units. Pure BigInt/string work: 3–12M ops/s here,
 * against ~0.4M for decimal.js (../shared/research/deps-probe.md §3c), and no rounding at all
 * because shifting the point by `scale` digits is exact.
 */

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
