import { describe, expect, it } from 'vitest';
import { PriceTable } from '../../../src/journal/price-file.js';
import { AppError } from '../../../src/util/errors.js';

const FILE = 'timestamp,price\r\n2026-10-01T00:00:00Z,60000.5\n2026-10-02T00:00:00Z,61000\n2026-10-02T12:00:00+02:00,62000.25\n';

describe('the price file', () => {
  const table = PriceTable.parse('btc', FILE, 'prices.csv', 86_400);

  it('gives the last price at or before the time', () => {
    expect(table.at('2026-10-01T00:00:00.000000Z')?.text).toBe('60000.5');
    expect(table.at('2026-10-01T23:59:59.999999Z')?.text).toBe('60000.5');
    expect(table.at('2026-10-02T09:59:59.999999Z')?.text).toBe('61000');
    // 12:00+02:00 is 10:00Z
    expect(table.at('2026-10-02T10:00:00.000000Z')).toMatchObject({ text: '62000.25', digits: 6200025n, decimals: 2, at: '2026-10-02T10:00:00.000000Z' });
  });

  it('has no price before its first row, nor one older than the staleness limit', () => {
    expect(table.at('2026-09-30T23:59:59.999999Z')).toBeNull();
    expect(table.at('2026-10-03T10:00:00.000000Z')?.text).toBe('62000.25');
    expect(table.at('2026-10-03T10:00:01.000000Z')).toBeNull();
  });

  it.each([
    ['a float in exponent form', '2026-10-01T00:00:00Z,6e4'],
    ['a negative price', '2026-10-01T00:00:00Z,-1'],
    ['a zero price', '2026-10-01T00:00:00Z,0.00'],
    ['a time without a zone', '2026-10-01T00:00:00,60000'],
    ['an extra column', '2026-10-01T00:00:00Z,60000,USD'],
  ])('refuses %s with exit 78 naming the line', (_label, line) => {
    try {
      PriceTable.parse('btc', `timestamp,price\n${line}\n`, 'prices.csv', 60);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(AppError);
      expect((error as AppError).exitCode).toBe(78);
      expect((error as AppError).message).toContain("price file 'prices.csv' line 2");
    }
  });

  it('ignores the columns a header names after timestamp,price (the price cache), and names its source', () => {
    const cache = PriceTable.parse('btc', 'timestamp,price,source,interval\n2026-10-01T01:00:00Z,60000.5,kraken,1h\n', 'kraken.BTC-USD.1h.csv', 3600, 'price_cache:kraken:1h');
    expect(cache.at('2026-10-01T01:30:00.000000Z')).toMatchObject({ text: '60000.5', source: 'price_cache:kraken:1h' });
    expect(table.at('2026-10-01T00:00:00.000000Z')?.source).toBe('price_file');
    // every row has the header's columns: a row short of them is refused
    expect(() => PriceTable.parse('btc', 'timestamp,price,source\n2026-10-01T01:00:00Z,60000.5\n', 'c.csv', 60)).toThrow(/line 2/);
  });

  it('refuses two prices at the same instant', () => {
    expect(() => PriceTable.parse('btc', '2026-10-01T00:00:00Z,1\n2026-10-01T02:00:00+02:00,2\n', 'p.csv', 60)).toThrow(/two prices/);
  });
});

describe("the price file's coverage of a span (payexport doctor)", () => {
  const ms = (text: string): number => Date.parse(text);
  // one price a day, staleness one day: covered from the first price until a day after the last
  const table = PriceTable.parse('btc', 'timestamp,price\n2026-10-01T00:00:00Z,1\n2026-10-02T00:00:00Z,2\n2026-10-05T00:00:00Z,3\n', 'p.csv', 86_400);

  it('is covered where every instant has a usable price', () => {
    expect(table.firstUncoveredMs(ms('2026-10-01T00:00:00Z'), ms('2026-10-03T00:00:00.001Z'))).toBeNull();
    expect(table.firstUncoveredMs(ms('2026-10-05T00:00:00Z'), ms('2026-10-06T00:00:00.001Z'))).toBeNull();
  });

  it('names the first instant without one: before the first price, after a stale stretch, past the end', () => {
    expect(table.firstUncoveredMs(ms('2026-09-30T00:00:00Z'), ms('2026-10-02T00:00:00Z'))).toBe(ms('2026-09-30T00:00:00Z'));
    // the price of the 2nd serves until the 3rd plus a millisecond; the next comes on the 5th
    const gap = table.firstUncoveredMs(ms('2026-10-01T00:00:00Z'), ms('2026-10-06T00:00:00Z'));
    expect(gap).toBe(ms('2026-10-03T00:00:00.001Z'));
    expect(table.at(new Date(gap! - 1).toISOString().replace('Z', '000Z'))).not.toBeNull();
    expect(table.at(new Date(gap!).toISOString().replace('Z', '000Z'))).toBeNull();
    expect(table.firstUncoveredMs(ms('2026-10-05T00:00:00Z'), ms('2026-10-09T00:00:00Z'))).toBe(ms('2026-10-06T00:00:00.001Z'));
  });
});
