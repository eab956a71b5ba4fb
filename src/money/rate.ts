/**
 * Exact rates without floats: the service's quote rates and fee ratios as plain decimal strings.
 */

/**
 * A quote rate `<coefficient>e<scale>` means coefficient / 10^scale base units of `quote_to` per
 * 1 BTC — not scientific notation (api-notes "Conventions"). Returns null for any other text.
 */
export function parseQuoteRate(raw: string): { coefficient: bigint; scale: number } | null {
  const m = /^(-?\d+)e(-?\d+)$/.exec(raw.trim());
  if (!m) return null;
  const scale = Number(m[2]);
  if (!Number.isSafeInteger(scale) || Math.abs(scale) > 1000) return null;
  return { coefficient: BigInt(m[1] as string), scale };
}

/** coefficient / 10^shift as a plain decimal string (shift may be negative), trailing zeros kept. */
export function shiftDecimal(coefficient: bigint, shift: number): string {
  if (shift <= 0) return (coefficient * 10n ** BigInt(-shift)).toString();
  const negative = coefficient < 0n;
  const digits = (negative ? -coefficient : coefficient).toString().padStart(shift + 1, '0');
  return `${negative ? '-' : ''}${digits.slice(0, digits.length - shift)}.${digits.slice(digits.length - shift)}`;
}

/** A quote rate in display units of `quote_to` per 1 BTC (e.g. USD per BTC), given that currency's decimals. */
export function quoteRatePerBtc(raw: string, quoteToDecimals: number): string | null {
  const rate = parseQuoteRate(raw);
  return rate === null ? null : shiftDecimal(rate.coefficient, rate.scale + quoteToDecimals);
}

/**
 * numerator / denominator in basis points with `decimals` digits, rounded half away from zero
 * (explicit, style.md rule 6). Null when the denominator is zero.
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
