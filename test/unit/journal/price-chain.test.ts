import { describe, expect, it } from 'vitest';
import { PriceChain } from '../../../src/journal/price-chain.js';
import { PriceTable } from '../../../src/journal/price-file.js';

const ms = (t: string): number => Date.parse(t);

describe('a chain of price tables (the price file, then the cache by policy)', () => {
  const file = PriceTable.parse('btc', '2026-10-01T00:00:00Z,60000\n', 'file.csv', 3600);
  const cache = PriceTable.parse('btc', 'timestamp,price,source\n2026-10-01T01:00:00Z,61000,kraken\n2026-10-01T02:00:00Z,62000,kraken\n', 'k.csv', 3600, 'price_cache:kraken:1h');
  const chain = new PriceChain([file, cache]);

  it('takes the first table with a fresh price, and names it', () => {
    expect(chain.at('2026-10-01T00:30:00.000000Z')).toMatchObject({ text: '60000', source: 'price_file' });
    // the file's price is stale past an hour: the cache answers
    expect(chain.at('2026-10-01T01:30:00.000000Z')).toMatchObject({ text: '61000', source: 'price_cache:kraken:1h' });
    expect(chain.at('2026-09-30T23:00:00.000000Z')).toBeNull();
  });

  it('is covered where any table is', () => {
    expect(chain.firstUncoveredMs(ms('2026-10-01T00:00:00Z'), ms('2026-10-01T03:00:00Z'))).toBeNull();
    expect(chain.firstUncoveredMs(ms('2026-10-01T00:00:00Z'), ms('2026-10-01T04:00:00Z'))).toBe(ms('2026-10-01T03:00:00.001Z'));
    expect(chain.firstUncoveredMs(ms('2026-09-30T00:00:00Z'), ms('2026-10-01T01:00:00Z'))).toBe(ms('2026-09-30T00:00:00Z'));
  });
});
