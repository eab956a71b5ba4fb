/**
 * Base units per currency (docs/service-facts.md#conventions): btc in millisatoshis, usd in cents, assets in the
 * asset's smallest unit with `decimal_display` digits for display (assets endpoint).
 */
import { divRound, type Rounding } from './rounding.js';

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

/** Whole sats → msats (exact). The deprecated on-chain fields and receipts carry WHOLE sats (docs/service-facts.md#amounts-and-fees). */
export function satsToMsats(sats: bigint): bigint {
  return sats * MSATS_PER_SAT;
}

/** msats → whole sats, with the rounding named by the caller (a sat-precision display or a comparison). */
export function msatsToSats(msats: bigint, rounding: Rounding): bigint {
  return divRound(msats, MSATS_PER_SAT, rounding);
}

/**
 * `asset:` + 66 hex digits (the group key) per the OpenAPI `Currency` pattern; its prose says 64,
 * so both lengths are accepted. Lowercase is the canonical spelling here.
 */
export const ASSET_CURRENCY = /^asset:(?:[0-9a-f]{64}|[0-9a-f]{66})$/;

export function isAssetCurrency(currency: string): boolean {
  return ASSET_CURRENCY.test(currency);
}

/** A currency we can book: `btc`, `usd` or a well-formed lowercase asset currency. */
export function isKnownCurrency(currency: string): boolean {
  return currency === 'btc' || currency === 'usd' || isAssetCurrency(currency);
}

/** `asset:<hex>` for an asset id (group key), lowercased. */
export function assetCurrency(assetHex: string): string {
  return `asset:${assetHex.toLowerCase()}`;
}
