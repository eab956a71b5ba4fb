/**
 * Bitstamp OHLC (docs/prices.md#bitstamp): public, no key.
 *   GET {base}/api/v2/ohlc/{btcusd}/?step=3600&limit=N&end=<unix>&exclude_current_candle=true
 *   200 → {"data": {"pair": "BTC/USD", "ohlc": [{"timestamp": "…", "open": "…", "high": "…", "low": "…", "close": "…", "volume": "…"}]}}
 *   strings throughout; `timestamp` = bucket start; `limit` 1–1000; with `end`, the N candles up to it
 *   errors → 4xx with {"errors": [{"field", "message", "code"}]} or {"status": "error", "reason", "code"};
 *   404 for a pair Bitstamp does not list
 * The answer names its pair (`data.pair`): another pair than asked is refused, never cached.
 */
import { INTERVAL_SECONDS, type PriceInterval } from '../interval.js';
import { decimalText } from '../decimal-text.js';
import { PriceSourceError } from '../source-error.js';
import type { Candle, CandleQuery, PriceSource, SourceRequest, SourceResponse } from '../source.js';
import { excerpt, isRecord, jsonBody, statusError } from './http-status.js';

export const BITSTAMP_BASE_URL = 'https://www.bitstamp.net';
export const BITSTAMP_MAX_LIMIT = 1000;

export function bitstampSource(baseUrl: string = BITSTAMP_BASE_URL): PriceSource {
  const base = baseUrl.replace(/\/+$/, '');
  return {
    name: 'bitstamp',
    // one below the documented 1000: the request asks for one candle more (see request)
    maxBuckets: () => BITSTAMP_MAX_LIMIT - 1,
    historyStartSec: () => null,
    request(q: CandleQuery): SourceRequest {
      const step = INTERVAL_SECONDS[q.interval];
      // `end` = the last bucket's END and one candle more: whether Bitstamp counts a candle starting
      // at `end` or not, every bucket of the query is in the answer (an extra one is dropped)
      const limit = Math.round((q.endSec - q.startSec) / step) + 1;
      const params = new URLSearchParams({ step: String(step), limit: String(limit), end: String(q.endSec), exclude_current_candle: 'true' });
      return { url: `${base}/api/v2/ohlc/${`${q.pair.base}${q.pair.quote}`.toLowerCase()}/?${params.toString()}`, headers: { accept: 'application/json' } };
    },
    parse(q: CandleQuery, response: SourceResponse): Candle[] {
      if (response.status !== 200) throw statusError('bitstamp', response, errorText(response.body));
      const body = jsonBody('bitstamp', response);
      const data = isRecord(body) ? body['data'] : undefined;
      if (!isRecord(data) || !Array.isArray(data['ohlc'])) {
        if (isRecord(body) && (body['status'] === 'error' || Array.isArray(body['errors']))) throw new PriceSourceError('unavailable', 'bitstamp', errorText(response.body));
        throw new PriceSourceError('unavailable', 'bitstamp', `expected {data: {pair, ohlc}}, got ${excerpt(body)}`, { kind: 'transport', reason: 'bad_body' });
      }
      const asked = `${q.pair.base}/${q.pair.quote}`;
      if (String(data['pair'] ?? '').toUpperCase() !== asked) throw new PriceSourceError('wrong_currency', 'bitstamp', `asked for ${asked}, the answer is for ${String(data['pair'] ?? 'no pair')}`);
      return data['ohlc'].map((row, i) => candle(row, i, q.interval));
    },
  };
}

function errorText(body: string): string {
  try {
    const parsed = JSON.parse(body) as unknown;
    if (isRecord(parsed) && Array.isArray(parsed['errors'])) return parsed['errors'].map((e) => (isRecord(e) ? `${String(e['field'] ?? '')} ${String(e['message'] ?? '')}`.trim() : String(e))).join('; ');
    if (isRecord(parsed) && typeof parsed['reason'] === 'string') return parsed['reason'];
  } catch {
    // not JSON: the excerpt below
  }
  return excerpt(body);
}

function candle(row: unknown, index: number, interval: PriceInterval): Candle {
  const time = isRecord(row) ? Number(row['timestamp']) : NaN;
  const close = isRecord(row) ? decimalText(row['close']) : null;
  if (!Number.isInteger(time) || close === null || time % INTERVAL_SECONDS[interval] !== 0) {
    throw new PriceSourceError('unavailable', 'bitstamp', `candle ${index}: expected {timestamp, open, high, low, close, volume} on a ${interval} boundary, got ${excerpt(row)}`, { kind: 'transport', reason: 'bad_body' });
  }
  return { startSec: time, close };
}
