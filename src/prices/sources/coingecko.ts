/**
 * CoinGecko market chart range (docs/prices.md#coingecko): a key is optional.
 *   GET {base}/coins/bitcoin/market_chart/range?vs_currency=usd&from=<unix>&to=<unix>
 *   200 → {"prices": [[ms, price], ...], "market_caps": [...], "total_volumes": [...]}
 *   granularity is automatic: 5-minutely within 1 day, hourly for 1–90 days, daily (00:00 UTC) beyond
 *   public and Demo plans: the past 365 days only (error_code 10012); 429 when rate limited
 *   keys: Demo `x-cg-demo-api-key` on api.coingecko.com, Pro `x-cg-pro-api-key` on pro-api.coingecko.com
 * CoinGecko sends observations, not candles: the close of a bucket (start, end] is its LAST
 * observation, whose time the cache keeps (`observed_at`). A bucket without an observation is a
 * gap; nothing is interpolated.
 */
import type { PricePair } from '../pair.js';
import { INTERVAL_SECONDS, type PriceInterval } from '../interval.js';
import { decimalText } from '../decimal-text.js';
import { PriceSourceError } from '../source-error.js';
import type { Candle, CandleQuery, PriceSource, SourceRequest, SourceResponse } from '../source.js';
import { excerpt, isRecord, jsonBody, statusError } from './http-status.js';

export const COINGECKO_BASE_URL = 'https://api.coingecko.com/api/v3';
export type CoinGeckoPlan = 'public' | 'demo' | 'pro';
const COIN_IDS: Readonly<Record<string, string>> = { BTC: 'bitcoin' };
const HISTORY_DAYS = 365;

export interface CoinGeckoOptions {
  baseUrl?: string;
  plan?: CoinGeckoPlan;
  /** the key, from PAYEXPORT_COINGECKO_API_KEY; sent as a header, never in the URL */
  apiKey?: string;
}

export function coingeckoSource(options: CoinGeckoOptions = {}): PriceSource {
  const base = (options.baseUrl ?? COINGECKO_BASE_URL).replace(/\/+$/, '');
  const plan = options.plan ?? (options.apiKey === undefined ? 'public' : 'demo');
  const headers: Record<string, string> = { accept: 'application/json' };
  if (options.apiKey !== undefined) headers[plan === 'pro' ? 'x-cg-pro-api-key' : 'x-cg-demo-api-key'] = options.apiKey;
  return {
    name: 'coingecko',
    // hourly answers only for ranges under 90 days; a year of daily closes in one request
    maxBuckets: (interval) => (interval === '1h' ? 89 * 24 : HISTORY_DAYS),
    historyStartSec: (interval, nowSec) => (plan === 'pro' ? null : Math.ceil((nowSec - HISTORY_DAYS * 86_400) / INTERVAL_SECONDS[interval]) * INTERVAL_SECONDS[interval]),
    request(q: CandleQuery): SourceRequest {
      const coin = COIN_IDS[q.pair.base] ?? q.pair.base.toLowerCase();
      const params = new URLSearchParams({ vs_currency: q.pair.quote.toLowerCase(), from: String(q.startSec), to: String(q.endSec) });
      return { url: `${base}/coins/${coin}/market_chart/range?${params.toString()}`, headers };
    },
    parse(q: CandleQuery, response: SourceResponse): Candle[] {
      if (response.status !== 200) throw errorOf(response, q.pair);
      const body = jsonBody('coingecko', response);
      if (!isRecord(body) || !Array.isArray(body['prices'])) throw new PriceSourceError('unavailable', 'coingecko', `expected {prices: [[ms, price]]}, got ${excerpt(body)}`, { kind: 'transport', reason: 'bad_body' });
      return closes(body['prices'], q.interval);
    },
  };
}

/** The last observation of each bucket (start, start + length]: a point at 00:00:00 UTC closes the day before. */
function closes(points: unknown[], interval: PriceInterval): Candle[] {
  const length = INTERVAL_SECONDS[interval];
  const byBucket = new Map<number, Candle>();
  points.forEach((point, i) => {
    const ms = Array.isArray(point) ? point[0] : undefined;
    const price = Array.isArray(point) ? decimalText(point[1]) : null;
    if (typeof ms !== 'number' || !Number.isFinite(ms) || price === null) {
      throw new PriceSourceError('unavailable', 'coingecko', `prices[${i}]: expected [ms, price], got ${excerpt(point)}`, { kind: 'transport', reason: 'bad_body' });
    }
    const observedSec = Math.floor(ms / 1000);
    const startSec = Math.ceil(observedSec / length) * length - length;
    const known = byBucket.get(startSec);
    if (known === undefined || (known.observedSec ?? 0) <= observedSec) byBucket.set(startSec, { startSec, close: price, observedSec });
  });
  return [...byBucket.values()].sort((a, b) => a.startSec - b.startSec);
}

function errorOf(response: SourceResponse, pair: PricePair): PriceSourceError {
  const body = safeJson(response.body);
  const status = isRecord(body) && isRecord(body['error']) && isRecord(body['error']['status']) ? body['error']['status'] : isRecord(body) && isRecord(body['status']) ? body['status'] : null;
  const code = status === null ? null : Number(status['error_code']);
  const message = status !== null ? String(status['error_message'] ?? '') : isRecord(body) && typeof body['error'] === 'string' ? body['error'] : excerpt(response.body);
  // 10012: "Your request exceeds the allowed time range" (public and Demo: 365 days)
  if (code === 10012) return new PriceSourceError('no_data', 'coingecko', `beyond the plan's history: ${message}`);
  if (response.status === 400 && /vs_currency/i.test(message)) return new PriceSourceError('wrong_currency', 'coingecko', `does not price in ${pair.quote}: ${message}`);
  return statusError('coingecko', response, message);
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}
