/**
 * Price intervals and their UTC buckets. A bucket is the half-open UTC span [start, start + length);
 * its price is the close of the bucket, stamped at the bucket's END (the instant the close is
 * known), so the journal's "last price at or before the movement" never uses a price from the
 * future. A daily bucket is the UTC day: never a local day (docs/prices.md#utc).
 */
import type { UtcInstant } from '../model/rows.js';

export const PRICE_INTERVALS = ['1h', '1d'] as const;
export type PriceInterval = (typeof PRICE_INTERVALS)[number];

export const INTERVAL_SECONDS: Readonly<Record<PriceInterval, number>> = { '1h': 3600, '1d': 86_400 };

/** The start of the bucket that holds `sec` (UTC; Unix seconds have no leap seconds). */
export function bucketStart(sec: number, interval: PriceInterval): number {
  const length = INTERVAL_SECONDS[interval];
  return Math.floor(sec / length) * length;
}

/** `2026-10-01T03:00:00Z`: the short RFC 3339 form the cache files hold. */
export function secondsToText(sec: number): string {
  return new Date(sec * 1000).toISOString().replace(/\.000Z$/, 'Z');
}

/** The canonical instant (`…000000Z`) of Unix seconds. */
export function secondsToInstant(sec: number): UtcInstant {
  return `${new Date(sec * 1000).toISOString().slice(0, 19)}.000000Z`;
}

/** Unix seconds of a UtcInstant (or any RFC 3339 text), floored to the second. */
export function instantToSeconds(instant: string): number {
  return Math.floor(Date.parse(instant.length > 24 ? instant.slice(0, 23) + 'Z' : instant) / 1000);
}

/** What the close of a bucket is, in words the cache file carries: `UTC day 2026-10-01`, `UTC hour 2026-10-01T03`. */
export function closeOf(startSec: number, interval: PriceInterval): string {
  const iso = new Date(startSec * 1000).toISOString();
  return interval === '1d' ? `UTC day ${iso.slice(0, 10)}` : `UTC hour ${iso.slice(0, 13)}`;
}
