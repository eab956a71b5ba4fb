/**
 * Base units per currency (spec "Conventions"): btc in millisatoshis, usd in cents, assets in the
 * asset's smallest unit with `decimal_display` digits for display (assets endpoint).
 */

/** The `unit` string the service uses for a currency (note the space in `base units`). */
export function unitOf(currency: string): 'msats' | 'cents' | 'base units' {
  if (currency === 'btc') return 'msats';
  if (currency === 'usd') return 'cents';
  return 'base units';
}

/** msats per sat and per BTC. */
export const MSATS_PER_SAT = 1_000n;
export const SATS_PER_BTC = 100_000_000n;
export const MSATS_PER_BTC = MSATS_PER_SAT * SATS_PER_BTC;

/** Digits after the point when a base amount is shown in display units: BTC 11 (msats), USD 2 (cents). */
export function displayScale(currency: string, assetDecimals?: ReadonlyMap<string, number>): number | null {
  if (currency === 'btc') return 11;
  if (currency === 'usd') return 2;
  return assetDecimals?.get(currency) ?? null;
}

/** The display code shown next to an amount: BTC, USD, or the asset's name when known. */
export function displayCurrency(currency: string, assetNames?: ReadonlyMap<string, string>): string {
  if (currency === 'btc') return 'BTC';
  if (currency === 'usd') return 'USD';
  return assetNames?.get(currency) ?? currency;
}
