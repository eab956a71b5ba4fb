/**
 * The price files of the journal config and the price cache, read once at the start of the report
 * stage. Paths are relative to the config file's folder (so a shipped config finds its shipped
 * prices from any working directory), else to the working directory.
 *
 * BTC in the books' currency is looked up in the user's file first, then in the cache files of the
 * pair's policy (`prices.policy`, docs/prices.md#policy), in order; a cache file not fetched yet
 * is simply absent (the entries it would have valued need a price, and say so).
 */
import { existsSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import type { JournalConfig } from '../config/journal-schema.js';
import type { PricesConfig } from '../config/prices-schema.js';
import { cacheFilePath } from '../prices/cache-file.js';
import { pairPolicy, rateSourceLabel } from '../prices/policy.js';
import { PriceChain } from './price-chain.js';
import { PriceTable, type PriceLookup } from './price-file.js';

export function loadPriceTables(config: JournalConfig, baseDir: string, prices?: PricesConfig): Map<string, PriceLookup> {
  const tables = new Map<string, PriceLookup[]>();
  for (const source of config.prices) {
    const path = isAbsolute(source.file) ? source.file : resolve(baseDir, source.file);
    tables.set(source.currency, [PriceTable.load(source.currency, path, source.file, source.maxStalenessSeconds)]);
  }
  if (prices !== undefined) {
    const cacheDir = resolve(baseDir, prices.cacheDir);
    const pair = { base: 'BTC', quote: config.booksCurrency };
    const policy = pairPolicy(prices, pair);
    for (const entry of policy.entries) {
      const path = cacheFilePath(cacheDir, entry.source, pair, entry.interval);
      if (!existsSync(path)) continue;
      tables.set('btc', [...(tables.get('btc') ?? []), PriceTable.load('btc', path, path, policy.maxStalenessSeconds, rateSourceLabel(entry))]);
    }
  }
  return new Map([...tables].map(([currency, list]) => [currency, list.length === 1 ? (list[0] as PriceLookup) : new PriceChain(list)]));
}

/** The cache folder of a config (absolute). */
export function priceCacheDir(prices: PricesConfig, baseDir: string): string {
  return isAbsolute(prices.cacheDir) ? prices.cacheDir : resolve(baseDir, prices.cacheDir);
}
