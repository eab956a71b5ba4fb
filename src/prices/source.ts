/**
 * One interface for every price source (docs/prices.md#sources). An adapter is pure: it turns a
 * query into a request and a response into candles, and knows its documented limits; the HTTP,
 * the retries and the cache live elsewhere (fetch-prices.ts). An adapter never invents a price:
 * a bucket the source did not return is simply absent, and the planner lists it as a gap.
 */
import type { PricePair } from './pair.js';
import type { PriceInterval } from './interval.js';

export const SOURCE_NAMES = ['coinbase', 'kraken', 'bitstamp', 'coingecko'] as const;
export type SourceName = (typeof SOURCE_NAMES)[number];

export interface CandleQuery {
  pair: PricePair;
  interval: PriceInterval;
  /** Unix seconds: the buckets starting in [startSec, endSec), each aligned to the interval */
  startSec: number;
  endSec: number;
}

export interface Candle {
  /** Unix seconds of the bucket's start (UTC) */
  startSec: number;
  /** the close, as plain decimal text in the quote currency per 1 base unit */
  close: string;
  /** when the close was observed, if not at the bucket's end (an observation source, not a candle) */
  observedSec?: number;
}

export interface SourceRequest {
  url: string;
  /** header names and values; a key goes here and nowhere else (never logged) */
  headers: Record<string, string>;
}

export interface SourceResponse {
  status: number;
  body: string;
  /** the Retry-After header, as sent */
  retryAfter: string | undefined;
}

export interface PriceSource {
  readonly name: SourceName;
  /** buckets one request may ask for (the documented maximum, or less) */
  maxBuckets(interval: PriceInterval): number;
  /** the oldest bucket start the source serves at `nowSec`, or null when its history is not limited */
  historyStartSec(interval: PriceInterval, nowSec: number): number | null;
  /** a request that proves the source prices this pair, made once before the candles (null: the candles say it) */
  pairCheck?(pair: PricePair): SourceRequest;
  /** throws PriceSourceError when the answer names another pair, or the pair is gone */
  parsePairCheck?(pair: PricePair, response: SourceResponse): void;
  request(query: CandleQuery): SourceRequest;
  /** the candles of a 2xx answer; throws PriceSourceError for an error body (also one sent with 200) */
  parse(query: CandleQuery, response: SourceResponse): Candle[];
}
