/**
 * Currencies and Amount objects off the wire.
 */
import { tryParseBaseAmount } from '../money/amount-parser.js';
import { isKnownCurrency, unitOf } from '../money/units.js';
import { type Flags, token } from './flags.js';
import { at, asObject, flagUnknownFields, isAbsent, WIRE_AMOUNT_MAX, type WireObject } from './read.js';

const AMOUNT_FIELDS: ReadonlySet<string> = new Set(['currency', 'amount', 'unit', 'negative']);

/**
 * A currency code, lowercased. Old records say `BTC` (docs/service-facts.md#amounts-and-fees): lowercased and flagged.
 * Unknown codes are kept (lowercased) and flagged; null only when absent or not a string.
 */
export function readCurrency(value: unknown, path: string, flags: Flags, required = true): string | null {
  if (isAbsent(value)) {
    if (required) flags.add('missing_field', path);
    return null;
  }
  if (typeof value !== 'string' || value === '') {
    flags.add('malformed_value', path);
    return null;
  }
  const lower = value.toLowerCase();
  // Uppercase `BTC`/`USD` comes from older records; hex case in asset ids is not meaningful.
  if (lower !== value && (lower === 'btc' || lower === 'usd' || value.startsWith('ASSET:') || value.startsWith('Asset:'))) {
    flags.add('uppercase_currency', path);
  }
  if (!isKnownCurrency(lower)) flags.add('unknown_currency', token(value));
  return lower;
}

/** An amount with its currency; `base` null = unusable (flagged), never 0. */
export interface WireMoney {
  currency: string | null;
  base: bigint | null;
}

/**
 * Reads an Amount / SignedAmount object `{currency, amount, unit?, negative?}`.
 * Returns undefined when the field is absent (or JSON null), so callers can tell "absent"
 * (e.g. no fee object: no fee applies) from "present but malformed" (base null).
 * `negative: true` negates the amount (OpenAPI `SignedAmount`).
 */
export function readAmount(value: unknown, path: string, flags: Flags): WireMoney | undefined {
  if (isAbsent(value)) return undefined;
  const obj = asObject(value);
  if (!obj) {
    flags.add('malformed_amount', path);
    return { currency: null, base: null };
  }
  flagUnknownFields(obj, AMOUNT_FIELDS, path, flags);
  const currency = readCurrency(obj['currency'], at(path, 'currency'), flags);
  const parsed = tryParseBaseAmount(obj['amount'], at(path, 'amount'), { maxAbs: WIRE_AMOUNT_MAX });
  if (!parsed.ok) {
    flags.add('malformed_amount', at(path, 'amount'));
    return { currency, base: null };
  }
  let base = parsed.value;
  const negative = obj['negative'];
  if (negative !== undefined && negative !== null && typeof negative !== 'boolean') {
    flags.add('malformed_amount', at(path, 'negative'));
    return { currency, base: null };
  }
  if (negative === true) {
    // A negative digit string AND negative:true is a double negative nobody documents: refuse to guess.
    if (base < 0n) {
      flags.add('malformed_amount', at(path, 'amount'));
      return { currency, base: null };
    }
    base = -base;
  }
  if (!unitMatches(obj, currency)) {
    // msats vs cents confusion would silently scale the amount by 10^n: not bookable (API-18).
    flags.add('unit_mismatch', at(path, 'unit'));
    return { currency, base: null };
  }
  return { currency, base };
}

function unitMatches(obj: WireObject, currency: string | null): boolean {
  const unit = obj['unit'];
  if (isAbsent(unit)) return true; // optional in requests; older responses omit it
  if (currency === null || !isKnownCurrency(currency)) return typeof unit === 'string';
  return unit === unitOf(currency);
}

/**
 * Prefers the Amount object over a deprecated integer field and flags a disagreement
 * (`toleranceBase` allows the rounding of a whole-sat field: < 1,000 msats).
 */
export function preferModern(
  modern: bigint | null | undefined,
  legacy: bigint | null | undefined,
  legacyPath: string,
  toleranceBase: bigint,
  flags: Flags,
): bigint | null {
  if (modern !== undefined && modern !== null) {
    if (legacy !== undefined && legacy !== null) {
      const difference = modern > legacy ? modern - legacy : legacy - modern;
      if (difference > toleranceBase) flags.add('amount_disagreement', legacyPath);
    }
    return modern;
  }
  if (legacy !== undefined && legacy !== null) {
    flags.add('legacy_amount', legacyPath);
    return legacy;
  }
  return null;
}
