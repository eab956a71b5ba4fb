import { describe, expect, it } from 'vitest';
import { decimalText } from '../../../src/prices/decimal-text.js';
import { coingeckoSource } from '../../../src/prices/sources/coingecko.js';
import { krakenPair, krakenSource } from '../../../src/prices/sources/kraken.js';
import { closeOf, bucketStart } from '../../../src/prices/interval.js';
import { COINGECKO_RANGE_EXAMPLE } from '../../support/prices/fixtures/coingecko.js';
import { KRAKEN_OHLC_EXAMPLE } from '../../support/prices/fixtures/kraken.js';

const PAIR = { base: 'BTC', quote: 'USD' };
const ok = (body: unknown) => ({ status: 200, body: JSON.stringify(body), retryAfter: undefined });

describe('adapters, pure', () => {
  it('CoinGecko sends a key only as a header, never in the URL, and the plan picks the header', () => {
    const q = { pair: PAIR, interval: '1h' as const, startSec: 0, endSec: 3600 };
    const demo = coingeckoSource({ apiKey: 'CG-secret-1' }).request(q);
    expect(demo.url).not.toContain('CG-secret-1');
    expect(demo.headers['x-cg-demo-api-key']).toBe('CG-secret-1');
    expect(coingeckoSource({ apiKey: 'CG-secret-1', plan: 'pro' }).request(q).headers['x-cg-pro-api-key']).toBe('CG-secret-1');
    expect(coingeckoSource().request(q).headers).toEqual({ accept: 'application/json' });
    // without a Pro key the history is a year; with it, unlimited
    expect(coingeckoSource().historyStartSec('1d', 400 * 86_400)).toBe(35 * 86_400);
    expect(coingeckoSource({ apiKey: 'k', plan: 'pro' }).historyStartSec('1d', 400 * 86_400)).toBeNull();
  });

  it('CoinGecko: the documented example’s points close the hours that end at them', () => {
    const candles = coingeckoSource().parse({ pair: PAIR, interval: '1h', startSec: 0, endSec: 2e9 }, ok(COINGECKO_RANGE_EXAMPLE));
    expect(candles).toEqual(COINGECKO_RANGE_EXAMPLE.prices.map(([ms, price]) => ({ startSec: ms! / 1000 - 3600, close: String(price), observedSec: ms! / 1000 })));
  });

  it('Kraken: the documented example parses to its closes, XBT and the legacy key understood', () => {
    expect(krakenPair(PAIR)).toEqual({ query: 'XBTUSD', keys: ['XBTUSD', 'XXBTZUSD'] });
    const candles = krakenSource().parse({ pair: PAIR, interval: '1h', startSec: 0, endSec: 2e9 }, ok(KRAKEN_OHLC_EXAMPLE));
    expect(candles).toEqual(KRAKEN_OHLC_EXAMPLE.result.XXBTZUSD.map((row) => ({ startSec: row[0], close: row[4] })));
  });

  it('takes a price as plain decimal text, and refuses what the journal could not read', () => {
    expect(decimalText('61384.27')).toBe('61384.27');
    expect(decimalText(61384.27)).toBe('61384.27');
    for (const bad of ['6e4', 1e21, '-1', '0', 0, '0.000', 'NaN', null, {}]) expect(decimalText(bad)).toBeNull();
  });

  it('buckets in UTC and says what a close closes', () => {
    const t = Date.parse('2026-10-01T23:30:00Z') / 1000;
    expect(bucketStart(t, '1d')).toBe(Date.parse('2026-10-01T00:00:00Z') / 1000);
    expect(closeOf(bucketStart(t, '1d'), '1d')).toBe('UTC day 2026-10-01');
    expect(closeOf(bucketStart(t, '1h'), '1h')).toBe('UTC hour 2026-10-01T23');
  });
});
