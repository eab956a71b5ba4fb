/**
 * Coinbase Exchange candles (docs/prices.md#coinbase): public, no key.
 *   GET {base}/products/{BASE-QUOTE}/candles?granularity=3600&start=ISO&end=ISO
 *   200 → [[time, low, high, open, close, volume], ...], newest first, numbers; `time` = bucket start
 *   at most 300 candles per request (more is rejected); no data for intervals without trades
 *   errors → {"message": "..."} (404 NotFound for an unknown product, 429 when rate limited)
 * The candles do not name their product, so the pair is proved once with GET /products/{id}
 * (`base_currency`, `quote_currency`).
 */
import type { PricePair } from '../pair.js';
import { INTERVAL_SECONDS, secondsToText, type PriceInterval } from '../interval.js';
import { decimalText } from '../decimal-text.js';
import { PriceSourceError } from '../source-error.js';
import type { Candle, CandleQuery, PriceSource, SourceRequest, SourceResponse } from '../source.js';
import { excerpt, isRecord, jsonBody, statusError } from './http-status.js';

export const COINBASE_BASE_URL = 'https://api.exchange.coinbase.com';

export function coinbaseSource(baseUrl: string = COINBASE_BASE_URL): PriceSource {
  const base = baseUrl.replace(/\/+$/, '');
  const product = (pair: PricePair): string => `${pair.base}-${pair.quote}`;
  const failure = (response: SourceResponse): PriceSourceError => {
    const body = safeJson(response.body);
    return statusError('coinbase', response, isRecord(body) && typeof body['message'] === 'string' ? body['message'] : excerpt(response.body));
  };
  return {
    name: 'coinbase',
    // 300 is the documented maximum; `end` is sent as the last bucket's END, which Coinbase may
    // count as one more candle — one fewer keeps every request within the limit either way
    maxBuckets: () => 299,
    historyStartSec: () => null,
    pairCheck: (pair): SourceRequest => ({ url: `${base}/products/${product(pair)}`, headers: { accept: 'application/json' } }),
    parsePairCheck(pair, response) {
      if (response.status !== 200) throw failure(response);
      const body = jsonBody('coinbase', response);
      if (!isRecord(body)) throw new PriceSourceError('unavailable', 'coinbase', `product ${product(pair)}: expected an object, got ${excerpt(body)}`);
      const baseCode = String(body['base_currency'] ?? '').toUpperCase();
      const quoteCode = String(body['quote_currency'] ?? '').toUpperCase();
      if (baseCode !== pair.base || quoteCode !== pair.quote) {
        throw new PriceSourceError('wrong_currency', 'coinbase', `asked for ${product(pair)}, the product is priced ${baseCode || '?'}-${quoteCode || '?'}`);
      }
    },
    request(q: CandleQuery): SourceRequest {
      const granularity = INTERVAL_SECONDS[q.interval];
      // a candle starting at `end` (if the API includes it) is outside the query and dropped by the fetcher
      const params = new URLSearchParams({ granularity: String(granularity), start: secondsToText(q.startSec), end: secondsToText(q.endSec) });
      return { url: `${base}/products/${product(q.pair)}/candles?${params.toString()}`, headers: { accept: 'application/json' } };
    },
    parse(q: CandleQuery, response: SourceResponse): Candle[] {
      if (response.status !== 200) throw failure(response);
      const body = jsonBody('coinbase', response);
      if (!Array.isArray(body)) throw new PriceSourceError('unavailable', 'coinbase', `candles: expected an array, got ${excerpt(body)}`, { kind: 'transport', reason: 'bad_body' });
      return body.map((row, i) => candle(row, i, q.interval));
    },
  };
}

function candle(row: unknown, index: number, interval: PriceInterval): Candle {
  const time = Array.isArray(row) ? row[0] : undefined;
  const close = Array.isArray(row) ? decimalText(row[4]) : null;
  if (typeof time !== 'number' || !Number.isInteger(time) || close === null || time % INTERVAL_SECONDS[interval] !== 0) {
    throw new PriceSourceError('unavailable', 'coinbase', `candle ${index}: expected [time, low, high, open, close, volume] on a ${interval} boundary, got ${excerpt(row)}`, { kind: 'transport', reason: 'bad_body' });
  }
  return { startSec: time, close };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}
