/**
 * A price as a provider sends it → the plain decimal text the price file holds. Strings are taken
 * as written; JSON numbers (Coinbase, CoinGecko) are written back in their shortest round-trip
 * form, which is the literal the provider sent for any price with ≤ 15 significant digits. An
 * exponent, a sign or a zero is refused: a price the journal cannot read is not a price.
 */
const PLAIN = /^(0|[1-9][0-9]*)(\.[0-9]{1,18})?$/;

export function decimalText(value: unknown): string | null {
  const text = typeof value === 'string' ? value.trim() : typeof value === 'number' && Number.isFinite(value) ? String(value) : null;
  if (text === null || !PLAIN.test(text)) return null;
  if (/^0(\.0*)?$/.test(text)) return null;
  return text;
}
