/**
 * Kraken OHLC (docs/prices.md#kraken): public, no key.
 *   GET {base}/0/public/OHLC?pair=XBTUSD&interval=60&since=<unix>
 *   200 → {"error": [], "result": {"XXBTZUSD": [[time, open, high, low, close, vwap, volume, count], ...], "last": <unix>}}
 *   prices are strings; `time` = bucket start; the LAST entry is the current, unfinished interval
 *   only the 720 most recent entries exist, whatever `since` says (older data cannot be had here)
 *   errors come as HTTP 200 with `error: ["EQuery:Unknown asset pair"]`, `["EAPI:Rate limit exceeded"]`,
 *   `["EService:Unavailable"]`, ...
 * Kraken calls bitcoin XBT and prefixes legacy codes (XXBT, ZUSD): the result key is checked
 * against the pair asked, so an answer for another pair is refused, never cached.
 */
import type { PricePair } from '../pair.js';
import { INTERVAL_SECONDS, type PriceInterval } from '../interval.js';
import { decimalText } from '../decimal-text.js';
import { PriceSourceError } from '../source-error.js';
import type { Candle, CandleQuery, PriceSource, SourceRequest, SourceResponse } from '../source.js';
import { excerpt, isRecord, jsonBody, statusError } from './http-status.js';

export const KRAKEN_BASE_URL = 'https://api.kraken.com';
/** "Returns up to 720 of the most recent entries" */
export const KRAKEN_MAX_ENTRIES = 720;

const KRAKEN_CODE: Readonly<Record<string, string>> = { BTC: 'XBT' };
/** currencies Kraken names with a legacy X (crypto) or Z (fiat) prefix in result keys */
const LEGACY_PREFIX: Readonly<Record<string, string>> = { XBT: 'X', USD: 'Z', EUR: 'Z', GBP: 'Z', CAD: 'Z', JPY: 'Z', CHF: 'Z', AUD: 'Z' };

export function krakenPair(pair: PricePair): { query: string; keys: string[] } {
  const b = KRAKEN_CODE[pair.base] ?? pair.base;
  const q = KRAKEN_CODE[pair.quote] ?? pair.quote;
  return { query: `${b}${q}`, keys: [`${b}${q}`, `${LEGACY_PREFIX[b] ?? ''}${b}${LEGACY_PREFIX[q] ?? ''}${q}`] };
}

export function krakenSource(baseUrl: string = KRAKEN_BASE_URL): PriceSource {
  const base = baseUrl.replace(/\/+$/, '');
  return {
    name: 'kraken',
    maxBuckets: () => KRAKEN_MAX_ENTRIES,
    // the unfinished interval is one of the 720: 719 finished ones before the current
    historyStartSec: (interval, nowSec) => Math.floor(nowSec / INTERVAL_SECONDS[interval]) * INTERVAL_SECONDS[interval] - (KRAKEN_MAX_ENTRIES - 1) * INTERVAL_SECONDS[interval],
    request(q: CandleQuery): SourceRequest {
      const params = new URLSearchParams({ pair: krakenPair(q.pair).query, interval: String(INTERVAL_SECONDS[q.interval] / 60), since: String(q.startSec - 1) });
      return { url: `${base}/0/public/OHLC?${params.toString()}`, headers: { accept: 'application/json' } };
    },
    parse(q: CandleQuery, response: SourceResponse): Candle[] {
      const body = response.status === 200 ? jsonBody('kraken', response) : null;
      if (response.status !== 200) throw statusError('kraken', response, excerpt(response.body));
      if (!isRecord(body) || !Array.isArray(body['error'])) throw new PriceSourceError('unavailable', 'kraken', `expected {error, result}, got ${excerpt(body)}`, { kind: 'transport', reason: 'bad_body' });
      const errors = body['error'].map(String);
      if (errors.length > 0) throw errorOf(errors, response);
      const result = body['result'];
      if (!isRecord(result)) throw new PriceSourceError('unavailable', 'kraken', `no result: ${excerpt(body)}`, { kind: 'transport', reason: 'bad_body' });
      const { keys } = krakenPair(q.pair);
      const names = Object.keys(result).filter((k) => k !== 'last');
      const key = names.find((k) => keys.includes(k));
      if (key === undefined) throw new PriceSourceError('wrong_currency', 'kraken', `asked for ${keys[0]}, the answer holds ${names.join(', ') || 'no pair'}`);
      const rows = result[key];
      if (!Array.isArray(rows)) throw new PriceSourceError('unavailable', 'kraken', `result.${key}: expected an array`, { kind: 'transport', reason: 'bad_body' });
      return rows.map((row, i) => candle(row, i, q.interval));
    },
  };
}

function errorOf(errors: string[], response: SourceResponse): PriceSourceError {
  const text = errors.join('; ');
  if (errors.some((e) => /^EAPI:Rate limit|^EGeneral:Too many requests/i.test(e))) {
    return new PriceSourceError('rate_limited', 'kraken', `rate limited: ${text}`, { kind: 'status', status: 429, type: 'kraken_rate_limit' });
  }
  if (errors.some((e) => /^EQuery:Unknown asset pair/i.test(e))) return new PriceSourceError('source_gone', 'kraken', text);
  if (errors.some((e) => /^EService:(Unavailable|Busy)/i.test(e))) return new PriceSourceError('unavailable', 'kraken', text, { kind: 'status', status: 503, type: 'kraken_unavailable' });
  return new PriceSourceError('unavailable', 'kraken', `HTTP ${response.status}: ${text}`);
}

function candle(row: unknown, index: number, interval: PriceInterval): Candle {
  const time = Array.isArray(row) ? row[0] : undefined;
  const close = Array.isArray(row) ? decimalText(row[4]) : null;
  if (typeof time !== 'number' || !Number.isInteger(time) || close === null || time % INTERVAL_SECONDS[interval] !== 0) {
    throw new PriceSourceError('unavailable', 'kraken', `entry ${index}: expected [time, open, high, low, close, vwap, volume, count] on a ${interval} boundary, got ${excerpt(row)}`, { kind: 'transport', reason: 'bad_body' });
  }
  return { startSec: time, close };
}
