import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fetchVerdict } from '../../../src/prices/fetch-job.js';
import { cacheFilePath } from '../../../src/prices/cache-file.js';
import { serveFakePriceSources, type FakeSourceName } from '../../support/prices/fake-price-sources.js';
import { closeText } from '../../support/prices/price-series.js';
import { day, fetchWith, NOW_SEC, pricesConfigFor, tempCacheDir } from '../../support/prices/fetch-harness.js';
import { readCsvWithPython } from '../../support/readers/readers.js';
import { readersMissing } from '../../support/readers/readers.js';

/**
 * Each adapter against a local server that answers as its provider documents
 * (test/support/prices/fixtures/*.ts): the closes land in the cache as the series says, the
 * requests respect each API's limits, and every documented failure becomes its own kind.
 */
const PAIR = { base: 'BTC', quote: 'USD' };
const SOURCES: FakeSourceName[] = ['coinbase', 'kraken', 'bitstamp', 'coingecko'];
const FROM = day('2026-11-20');
const TO = day('2026-11-22');
/** closes stamped in [FROM, TO]: 48 hours + 1 */
const HOURS = (TO - FROM) / 3600 + 1;

/** What the fake's series says the close of the hour starting at `start` is, as each source defines its close. */
function expectedClose(source: FakeSourceName, start: number): string {
  // CoinGecko's close is its last observation in the hour, the one stamped at the hour's end
  return source === 'coingecko' ? String(Number(closeText('coingecko', start, 3600))) : source === 'coinbase' ? String(Number(closeText(source, start, 3600))) : closeText(source, start, 3600);
}

describe.each(SOURCES)('the %s adapter', (source) => {
  const request = { pair: PAIR, fromSec: FROM, toSec: TO, source, interval: '1h' as const };

  it('fills the cache with every hourly close of the range, stamped at the hour’s end, as the series says', async () => {
    const fake = await serveFakePriceSources({ nowSec: () => NOW_SEC });
    const dir = tempCacheDir();
    const { result } = await fetchWith(pricesConfigFor(fake), dir, request);
    const outcome = result.outcomes[0]!;
    expect(outcome.failure).toBeNull();
    expect(outcome.gaps).toEqual([]);
    expect(outcome.appended).toBe(HOURS);
    expect(fetchVerdict(PAIR, result).exit).toBe('ok');
    const text = readFileSync(cacheFilePath(dir, source, PAIR, '1h'), 'utf8');
    const rows = text.trim().split('\n').slice(1).map((l) => l.split(','));
    expect(rows).toHaveLength(HOURS);
    for (const [i, row] of rows.entries()) {
      const start = FROM - 3600 + i * 3600;
      expect(row[0]).toBe(new Date((start + 3600) * 1000).toISOString().replace('.000Z', 'Z'));
      expect(row[1]).toBe(expectedClose(source, start));
      expect(row.slice(2, 5)).toEqual([source, '1h', `UTC hour ${new Date(start * 1000).toISOString().slice(0, 13)}`]);
    }
    // the documented limits: Coinbase ≤ 300 candles, Bitstamp ≤ 1000, Kraken's interval in minutes, CoinGecko's range in seconds
    const calls = fake.requests(source);
    if (source === 'coinbase') {
      expect(calls.map((c) => c.path)).toEqual(['/coinbase/products/BTC-USD', '/coinbase/products/BTC-USD/candles']);
      expect(calls[1]!.query.get('granularity')).toBe('3600');
    }
    if (source === 'kraken') expect(Object.fromEntries(calls[0]!.query)).toMatchObject({ pair: 'XBTUSD', interval: '60' });
    if (source === 'bitstamp') expect(Number(calls[0]!.query.get('limit'))).toBeLessThanOrEqual(1000);
    if (source === 'coingecko') expect(calls[0]!.query.get('vs_currency')).toBe('usd');
  });

  it('retries a 429 without Retry-After on the capped backoff, and one with Retry-After no sooner than asked', async () => {
    const fake = await serveFakePriceSources({ nowSec: () => NOW_SEC });
    fake.script(source, 'rate_limited', 'rate_limited_retry_after');
    const { result, sleeps } = await fetchWith(pricesConfigFor(fake), tempCacheDir(), request);
    expect(result.outcomes[0]!.failure).toBeNull();
    expect(result.outcomes[0]!.appended).toBe(HOURS);
    // random 0.5: half of the first ceiling (500 ms); Kraken's rate limit comes in a 200 body with no header, so no floor there
    expect(sleeps[0]).toBe(250);
    if (source === 'kraken') expect(sleeps[1]).toBe(500);
    else expect(sleeps[1]).toBe(1000);
  });

  it('gives up on a 429 that lasts past the attempts: rate_limited (exit 75), the range listed as gaps, nothing cached', async () => {
    const fake = await serveFakePriceSources({ nowSec: () => NOW_SEC });
    fake.script(source, ...Array.from({ length: 10 }, () => 'rate_limited' as const));
    const dir = tempCacheDir();
    const { result, sleeps } = await fetchWith(pricesConfigFor(fake), dir, request);
    const outcome = result.outcomes[0]!;
    expect(outcome.failure?.kind).toBe('rate_limited');
    expect(sleeps).toHaveLength(3);
    expect(outcome.gaps).toHaveLength(HOURS);
    expect(fetchVerdict(PAIR, result)).toMatchObject({ exit: 'tempFail', kind: 'rate_limited' });
    expect(existsSync(cacheFilePath(dir, source, PAIR, '1h'))).toBe(false);
  });

  it('calls a 404 (or an unknown pair) source_gone (exit 68), without retrying', async () => {
    const fake = await serveFakePriceSources({ nowSec: () => NOW_SEC });
    fake.script(source, 'gone');
    const { result, sleeps } = await fetchWith(pricesConfigFor(fake), tempCacheDir(), request);
    expect(result.outcomes[0]!.failure?.kind).toBe('source_gone');
    expect(sleeps).toEqual([]);
    expect(fetchVerdict(PAIR, result).exit).toBe('noHost');
  });

  it('refuses an answer for another currency: wrong_currency (exit 76), nothing cached', async () => {
    const fake = await serveFakePriceSources({ nowSec: () => NOW_SEC });
    fake.script(source, 'wrong_currency');
    const dir = tempCacheDir();
    const { result } = await fetchWith(pricesConfigFor(fake), dir, request);
    expect(result.outcomes[0]!.failure?.kind).toBe('wrong_currency');
    // the exchanges name the pair they answered for; CoinGecko refuses the currency instead
    expect(result.outcomes[0]!.failure?.message).toMatch(source === 'coingecko' ? /does not price in USD/ : /EUR/);
    expect(fetchVerdict(PAIR, result).exit).toBe('protocol');
    expect(existsSync(cacheFilePath(dir, source, PAIR, '1h'))).toBe(false);
  });

  it('lists an empty answer as gaps (no_data, exit 66) and invents nothing', async () => {
    const fake = await serveFakePriceSources({ nowSec: () => NOW_SEC });
    fake.script(source, 'empty');
    const dir = tempCacheDir();
    const { result } = await fetchWith(pricesConfigFor(fake), dir, request);
    expect(result.outcomes[0]!.failure).toBeNull();
    expect(result.outcomes[0]!.gaps).toHaveLength(HOURS);
    expect(fetchVerdict(PAIR, result)).toMatchObject({ exit: 'noInput', kind: 'no_data' });
    expect(existsSync(cacheFilePath(dir, source, PAIR, '1h'))).toBe(false);
  });

  it('leaves the hours it has no data for as listed gaps, never filled', async () => {
    const fake = await serveFakePriceSources({ nowSec: () => NOW_SEC });
    const missing = [day('2026-11-21') + 5 * 3600, day('2026-11-21') + 6 * 3600];
    fake.withhold(source, missing);
    const dir = tempCacheDir();
    const { result } = await fetchWith(pricesConfigFor(fake), dir, request);
    expect(result.outcomes[0]!.gaps).toEqual(missing);
    expect(result.outcomes[0]!.appended).toBe(HOURS - 2);
    expect(fetchVerdict(PAIR, result).message).toContain('2026-11-21T05:00:00Z..2026-11-21T07:00:00Z (2 × 1h)');
    const stamps = readFileSync(cacheFilePath(dir, source, PAIR, '1h'), 'utf8').split('\n').map((l) => l.split(',')[0]);
    expect(stamps).not.toContain('2026-11-21T06:00:00Z');
    expect(stamps).not.toContain('2026-11-21T07:00:00Z');
  });
});

describe('documented limits', () => {
  it('Kraken: closes older than its 720 entries are not asked for, and listed as beyond its history', async () => {
    const fake = await serveFakePriceSources({ nowSec: () => NOW_SEC });
    const { result } = await fetchWith(pricesConfigFor(fake), tempCacheDir(), { pair: PAIR, fromSec: day('2026-10-01'), toSec: day('2026-10-31'), source: 'kraken', interval: '1h' });
    const outcome = result.outcomes[0]!;
    expect(outcome.beyondHistory).toBeGreaterThan(0);
    expect(outcome.appended + outcome.beyondHistory).toBe(outcome.wanted);
    expect(fetchVerdict(PAIR, result).kind).toBe('no_data');
  });

  it('Coinbase: a month of hours takes requests of at most 300 candles', async () => {
    const fake = await serveFakePriceSources({ nowSec: () => NOW_SEC });
    const { result } = await fetchWith(pricesConfigFor(fake), tempCacheDir(), { pair: PAIR, fromSec: day('2026-10-01'), toSec: day('2026-11-01'), source: 'coinbase', interval: '1h' });
    expect(result.outcomes[0]!.appended).toBe(31 * 24 + 1);
    const candles = fake.requests('coinbase').filter((r) => r.path.endsWith('/candles'));
    expect(candles).toHaveLength(3);
    for (const c of candles) expect((Date.parse(c.query.get('end')!) - Date.parse(c.query.get('start')!)) / 3_600_000 + 1).toBeLessThanOrEqual(300);
  });

  it('CoinGecko without a plan key: beyond 365 days is not asked for; a daily close is the last observation of the UTC day', async () => {
    const fake = await serveFakePriceSources({ nowSec: () => NOW_SEC });
    const dir = tempCacheDir();
    const { result } = await fetchWith(pricesConfigFor(fake), dir, { pair: PAIR, fromSec: day('2025-11-01'), toSec: day('2026-01-31'), source: 'coingecko', interval: '1d' });
    const outcome = result.outcomes[0]!;
    expect(outcome.beyondHistory).toBeGreaterThan(0);
    const rows = readFileSync(cacheFilePath(dir, 'coingecko', PAIR, '1d'), 'utf8').trim().split('\n').slice(1).map((l) => l.split(','));
    expect(rows.length).toBe(outcome.appended);
    for (const row of rows) {
      expect(row[0]).toMatch(/T00:00:00Z$/);
      expect(row[4]).toMatch(/^UTC day \d{4}-\d{2}-\d{2}$/);
      expect(Date.parse(row[0]!) - Date.parse(`${row[4]!.slice(8)}T00:00:00Z`)).toBe(86_400_000);
    }
  });

  it.skipIf(readersMissing('csv') !== null)('a cache file reads back with Python’s csv module', async () => {
    const fake = await serveFakePriceSources({ nowSec: () => NOW_SEC });
    const dir = tempCacheDir();
    await fetchWith(pricesConfigFor(fake), dir, { pair: PAIR, fromSec: FROM, toSec: TO, source: 'bitstamp', interval: '1h' });
    const parsed = readCsvWithPython(cacheFilePath(dir, 'bitstamp', PAIR, '1h'));
    expect(parsed.header).toEqual(['timestamp', 'price', 'source', 'interval', 'close_of', 'observed_at', 'fetched_at']);
    expect(parsed.records).toBe(HOURS);
    for (const row of parsed.rows) expect(row[1]).toBe(closeText('bitstamp', Date.parse(row[0]!) / 1000 - 3600, 3600));
  });
});
