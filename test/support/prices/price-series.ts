/**
 * The deterministic BTC-USD closes the fake sources serve: a function of the bucket, the interval
 * and the source (each source a few dollars apart, so two sources disagree as real ones do).
 * Tests compare the cache against this function, never against numbers typed by hand.
 */
const OFFSET_CENTS: Readonly<Record<string, bigint>> = { coinbase: 0n, kraken: 150n, bitstamp: -275n, coingecko: 1234n };

/** The close of the bucket starting at `startSec`, in cents. */
export function closeCents(source: string, startSec: number, lengthSec: number): bigint {
  const step = BigInt(Math.floor(startSec / lengthSec));
  // a slow walk between ~60,000 and ~70,000 USD
  return 6_000_000n + ((step * 7919n) % 1_000_000n) + (OFFSET_CENTS[source] ?? 0n);
}

export function closeText(source: string, startSec: number, lengthSec: number): string {
  const cents = closeCents(source, startSec, lengthSec);
  return `${cents / 100n}.${(cents % 100n).toString().padStart(2, '0')}`;
}
