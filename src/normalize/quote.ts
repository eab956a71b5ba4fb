/**
 * The quote of a cross-currency payment (USD wallets paying or receiving over BTC rails, asset
 * rails) and conversions at its rate. Rates are `<coefficient>e<scale>` base units of the non-BTC
 * currency per 1 BTC (money/rate.ts); conversions round half-even (documented in
 * docs/reconciliation.md: the service names no rounding for display-currency values).
 */
import { msatsToQuoted, parseRate, quotedToMsats, type QuoteRate } from '../money/rate.js';
import type { Rounding } from '../money/rounding.js';
import { readCurrency, type WireMoney } from './amount.js';
import { type Flags, token } from './flags.js';
import { MARKET_QUOTE_FIELDS, PEER_QUOTE_FIELDS, QUOTE_FIELDS } from './known-fields.js';
import { asObject, at, flagUnknownFields, isAbsent, readString, type WireObject } from './read.js';

export const CONVERSION_ROUNDING: Rounding = 'half_even';

export interface PaymentQuote {
  /** verbatim wire text */
  rateText: string;
  /** null when the text is not a valid rate (flagged) */
  rate: QuoteRate | null;
  from: string | null;
  to: string | null;
  quoteId: string | null;
}

/** A MarketQuote `{from, to, rate, ...}` or PeerQuote `{from, to, rfq: {rate}, ...}` at `path`. */
export function readQuoteDetail(value: unknown, path: string, flags: Flags, peer: boolean): PaymentQuote | null {
  if (isAbsent(value)) return null;
  const obj = asObject(value);
  if (!obj) {
    flags.add('malformed_value', path);
    return null;
  }
  flagUnknownFields(obj, peer ? PEER_QUOTE_FIELDS : MARKET_QUOTE_FIELDS, path, flags);
  let rateHolder: WireObject = obj;
  let ratePath = path;
  if (peer) {
    const rfq = asObject(obj['rfq']);
    if (!rfq) {
      flags.add('missing_field', at(path, 'rfq'));
      return null;
    }
    rateHolder = rfq;
    ratePath = at(path, 'rfq');
  }
  const rateText = readString(rateHolder, 'rate', ratePath, flags, true);
  if (rateText === null) return null;
  const rate = parseRate(rateText);
  if (rate === null) flags.add('malformed_value', at(ratePath, 'rate'));
  return {
    rateText,
    rate,
    from: readCurrency(obj['from'], at(path, 'from'), flags),
    to: readCurrency(obj['to'], at(path, 'to'), flags),
    quoteId: null,
  };
}

/** A tagged OpenAPI `Quote` `{type: market_rate | peer_rfq, detail}`. */
export function readTaggedQuote(value: unknown, path: string, flags: Flags): PaymentQuote | null {
  if (isAbsent(value)) return null;
  const obj = asObject(value);
  if (!obj) {
    flags.add('malformed_value', path);
    return null;
  }
  flagUnknownFields(obj, QUOTE_FIELDS, path, flags);
  const type = obj['type'];
  if (type === 'market_rate') return readQuoteDetail(obj['detail'], at(path, 'detail'), flags, false);
  if (type === 'peer_rfq') return readQuoteDetail(obj['detail'], at(path, 'detail'), flags, true);
  flags.add('malformed_value', `${at(path, 'type')}=${token(type)}`);
  return null;
}

/** The non-BTC side of a quote: the currency its rate is denominated in. */
export function quotedCurrency(quote: PaymentQuote): string | null {
  if (quote.from === 'btc') return quote.to;
  if (quote.to === 'btc') return quote.from;
  return null;
}

/**
 * `amount` expressed in `target`: as is when the currencies agree, converted at the quote when one
 * side is btc and the other is the quote's currency (flagged `converted_amount`), else null with
 * `currency_mismatch`. A null base stays null (already flagged by the reader).
 */
export function inCurrency(amount: WireMoney | undefined, target: string | null, quote: PaymentQuote | null, path: string, flags: Flags): bigint | null | undefined {
  if (amount === undefined) return undefined;
  if (amount.base === null || amount.currency === null || target === null) return null;
  if (amount.currency === target) return amount.base;
  const rate = quote?.rate ?? null;
  const other = quote ? quotedCurrency(quote) : null;
  if (rate !== null && other !== null) {
    if (amount.currency === 'btc' && target === other) {
      flags.add('converted_amount', path);
      return msatsToQuoted(amount.base, rate, CONVERSION_ROUNDING);
    }
    if (amount.currency === other && target === 'btc') {
      flags.add('converted_amount', path);
      return quotedToMsats(amount.base, rate, CONVERSION_ROUNDING);
    }
  }
  flags.add('currency_mismatch', path);
  return null;
}
