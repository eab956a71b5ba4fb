import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { journalSchema } from '../../../src/config/journal-schema.js';
import { loadPriceTables } from '../../../src/journal/load-prices.js';
import { CACHE_HEADER, cacheFilePath } from '../../../src/prices/cache-file.js';
import { markClosedThrough } from '../../../src/prices/closed-marker.js';
import { priceCoverage } from '../../../src/prices/coverage.js';
import type { HttpGet } from '../../../src/prices/http-get.js';
import { fetchGet } from '../../../src/prices/http-get.js';
import { serveFakePriceSources } from '../../support/prices/fake-price-sources.js';
import { closeText } from '../../support/prices/price-series.js';
import { day, fetchWith, NOW_SEC, pricesConfigFor, tempCacheDir } from '../../support/prices/fetch-harness.js';

/** The price cache's promises: idempotent, resumable, append-only, one file per source. */
const PAIR = { base: 'BTC', quote: 'USD' };
const OCTOBER = { pair: PAIR, fromSec: day('2026-10-01'), toSec: day('2026-11-01'), source: 'coinbase' as const, interval: '1h' as const };
const MINIMAL_JOURNAL = {
  accounts: { a: { ledger: 'Assets:A' }, b: { ledger: 'Income:B' } },
  wallets: {},
  counter: { send: { standard: 'b' }, receive: { standard: 'b' } },
  transfer: 'b',
  fees: { network: 'b', processing: 'b' },
  balanceMovements: 'b',
  roundingAccount: 'b',
  formats: ['csv'],
};

describe('the price cache', () => {
  it('fetching the same range twice changes nothing and asks nothing the second time', async () => {
    const fake = await serveFakePriceSources({ nowSec: () => NOW_SEC });
    const dir = tempCacheDir();
    const config = pricesConfigFor(fake);
    await fetchWith(config, dir, OCTOBER);
    const file = cacheFilePath(dir, 'coinbase', PAIR, '1h');
    const first = readFileSync(file, 'utf8');
    const asked = fake.server.requests.length;
    const { result } = await fetchWith(config, dir, OCTOBER);
    expect(readFileSync(file, 'utf8')).toBe(first);
    expect(result.outcomes[0]).toMatchObject({ appended: 0, requests: 0, cached: 31 * 24 + 1 });
    expect(fake.server.requests.length).toBe(asked);
  });

  it('a fetch killed after its first request resumes: the rest is appended after what was kept, nothing twice', async () => {
    const fake = await serveFakePriceSources({ nowSec: () => NOW_SEC });
    const dir = tempCacheDir();
    const config = pricesConfigFor(fake);
    const real = fetchGet(5_000);
    let calls = 0;
    // the process "dies" on its third request (product check, first chunk, then this): not a source failure, nothing caught
    const dying: HttpGet = async (request) => {
      if (++calls === 3) throw new Error('killed');
      return real(request);
    };
    await expect(fetchWith(config, dir, OCTOBER, { get: dying })).rejects.toThrow('killed');
    const file = cacheFilePath(dir, 'coinbase', PAIR, '1h');
    const kept = readFileSync(file, 'utf8');
    expect(kept.trim().split('\n')).toHaveLength(1 + 299);
    // a temp file a kill between write and rename would leave: removed by the next append, never read
    writeFileSync(join(dir, '.coinbase.BTC-USD.1h.csv.dead.tmp'), 'half a file');
    const { result } = await fetchWith(config, dir, OCTOBER);
    const after = readFileSync(file, 'utf8');
    expect(after.startsWith(kept)).toBe(true);
    expect(result.outcomes[0]).toMatchObject({ cached: 299, appended: 31 * 24 + 1 - 299, gaps: [] });
    const stamps = after.trim().split('\n').slice(1).map((l) => l.split(',')[0]);
    expect(new Set(stamps).size).toBe(stamps.length);
    expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('never rewrites a cached close, even when the source now says otherwise, and adds none in a closed period', async () => {
    const fake = await serveFakePriceSources({ nowSec: () => NOW_SEC });
    const dir = tempCacheDir();
    const file = cacheFilePath(dir, 'coinbase', PAIR, '1h');
    // what a closed October used: one close, by hand, that differs from what the source says today
    const used = `2026-10-15T12:00:00Z,12345.67,coinbase,1h,UTC hour 2026-10-15T11,2026-10-15T12:00:00Z,2026-10-16T00:00:00Z`;
    writeFileSync(file, `${CACHE_HEADER}\n${used}\n`);
    markClosedThrough(dir, '2026-10-20T00:00:00.000000Z');
    const { result } = await fetchWith(pricesConfigFor(fake), dir, OCTOBER);
    const text = readFileSync(file, 'utf8');
    expect(text.split('\n')[1]).toBe(used);
    const stamps = text.trim().split('\n').slice(2).map((l) => l.split(',')[0]!);
    // nothing at or before the mark was added; everything after it was
    expect(stamps.every((s) => s > '2026-10-20T00:00:00Z')).toBe(true);
    expect(stamps).toHaveLength(12 * 24);
    expect(result.outcomes[0]!.closed).toBe(19 * 24);
    // the mark only moves forward
    markClosedThrough(dir, '2026-10-01T00:00:00.000000Z');
    expect(readFileSync(join(dir, 'closed-through'), 'utf8').trim()).toBe('2026-10-20T00:00:00.000000Z');
  });

  it('counts a close the source revised without writing it', async () => {
    const fake = await serveFakePriceSources({ nowSec: () => NOW_SEC });
    const dir = tempCacheDir();
    const file = cacheFilePath(dir, 'coinbase', PAIR, '1h');
    const first = { ...OCTOBER, fromSec: day('2026-10-15'), toSec: day('2026-10-15') + 2 * 3600 };
    writeFileSync(file, `${CACHE_HEADER}\n2026-10-15T01:00:00Z,1.5,coinbase,1h,UTC hour 2026-10-15T00,2026-10-15T01:00:00Z,2026-10-16T00:00:00Z\n`);
    const { result } = await fetchWith(pricesConfigFor(fake), dir, first);
    // the planner asks only for the missing closes; the revised one came back inside the same request
    expect(result.outcomes[0]!.appended).toBe(2);
    expect(result.outcomes[0]!.revised).toBe(1);
    expect(readFileSync(file, 'utf8').split('\n')[1]).toContain(',1.5,');
  });

  it('keeps two sources that disagree in two files, and the journal takes the policy’s first, naming it', async () => {
    const fake = await serveFakePriceSources({ nowSec: () => NOW_SEC });
    const dir = tempCacheDir();
    const config = pricesConfigFor(fake, { cacheDir: dir, policy: { 'BTC-USD': { sources: ['bitstamp:1h', 'coinbase:1h'] } } });
    const window = { pair: PAIR, fromSec: day('2026-11-20'), toSec: day('2026-11-21') };
    await fetchWith(config, dir, { ...window, source: 'coinbase', interval: '1h' });
    await fetchWith(config, dir, { ...window, source: 'bitstamp', interval: '1h' });
    const line = (source: string): string => readFileSync(cacheFilePath(dir, source, PAIR, '1h'), 'utf8').split('\n')[5]!;
    expect(line('coinbase').split(',')[0]).toBe(line('bitstamp').split(',')[0]);
    expect(line('coinbase').split(',')[1]).not.toBe(line('bitstamp').split(',')[1]);

    const journal = journalSchema.parse(MINIMAL_JOURNAL);
    const prices = loadPriceTables(journal, dir, config).get('btc')!;
    const at = '2026-11-20T05:30:00.000000Z';
    const point = prices.at(at)!;
    expect(point.source).toBe('price_cache:bitstamp:1h');
    expect(point.at).toBe('2026-11-20T05:00:00.000000Z');
    expect(point.text).toBe(closeText('bitstamp', day('2026-11-20') + 4 * 3600, 3600));
    // staleness keeps applying: a day and a bit after the last close, no price
    expect(prices.at('2026-11-22T01:00:00.000000Z')).toBeNull();
  });

  it('reports its coverage of a window without a request (what doctor shows)', async () => {
    const fake = await serveFakePriceSources({ nowSec: () => NOW_SEC });
    const dir = tempCacheDir();
    fake.withhold('coinbase', [day('2026-11-20') + 3 * 3600]);
    const config = pricesConfigFor(fake);
    await fetchWith(config, dir, { pair: PAIR, fromSec: day('2026-11-20'), toSec: day('2026-11-21'), source: 'coinbase', interval: '1h' });
    const asked = fake.server.requests.length;
    const coverage = priceCoverage(dir, 'BTC-USD', { from: '2026-11-20T00:00:00.000000Z', to: '2026-11-21T00:00:00.000000Z' }, { config, now: new Date(NOW_SEC * 1000) });
    expect(fake.server.requests.length).toBe(asked);
    expect(coverage.coveredBy).toBeNull();
    const coinbase = coverage.sources.find((s) => s.label === 'price_cache:coinbase:1h')!;
    expect(coinbase).toMatchObject({ wanted: 25, present: 24, missing: [day('2026-11-20') + 3 * 3600] });
    expect(coverage.sources.find((s) => s.label === 'price_cache:kraken:1h')).toMatchObject({ present: 0 });
  });
});
