/**
 * Quote rates (OpenAPI `rate-string`): `<coefficient>e<scale>` means coefficient / 10^scale base
 * units of the non-BTC currency per 1 BTC. It is NOT scientific notation: `12345e2` is 123.45
 * base units per BTC, not 1,234,500. The same rate serves both directions (BTC→X and X→BTC).
 *
 * Conversions are exact rational arithmetic in BigInt with a named rounding; test/property
 * checks them against the decimal.js clone (decimal.ts) at 100 significant digits.
 */
import { divRound, pow10, type Rounding } from './rounding.js';
import { MSATS_PER_BTC } from './units.js';

export interface QuoteRate {
  /** base units of the quoted currency per 1 BTC, times 10^scale */
  coefficient: bigint;
  scale: number;
}

const RATE = /^(0|[1-9][0-9]*)e(0|[1-9][0-9]{0,3})$/;

/** Parses a rate string strictly; null for anything else (`1.5e2`, `1E2`, `1e-2`, `+1e2`, `0e0`, ` 1e2`). */
export function parseRate(text: unknown): QuoteRate | null {
  if (typeof text !== 'string') return null;
  const m = RATE.exec(text);
  if (!m) return null;
  const coefficient = BigInt(m[1] ?? '0');
  const scale = Number(m[2]);
  // A zero rate converts everything to nothing (and its inverse divides by zero): not a rate.
  if (coefficient === 0n) return null;
  return { coefficient, scale };
}

/** The rate back in its wire spelling. */
export function formatRate(rate: QuoteRate): string {
  return `${rate.coefficient}e${rate.scale}`;
}

/** msats → quoted-currency base units: msats × coefficient / (10^scale × 10^11), rounded as named. */
export function msatsToQuoted(msats: bigint, rate: QuoteRate, rounding: Rounding): bigint {
  return divRound(msats * rate.coefficient, pow10(rate.scale) * MSATS_PER_BTC, rounding);
}

/** quoted-currency base units → msats: base × 10^scale × 10^11 / coefficient, rounded as named. */
export function quotedToMsats(base: bigint, rate: QuoteRate, rounding: Rounding): bigint {
  return divRound(base * pow10(rate.scale) * MSATS_PER_BTC, rate.coefficient, rounding);
}
