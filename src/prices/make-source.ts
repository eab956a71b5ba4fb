/** A source adapter from the config's base URLs (docs/prices.md#production: the public APIs by default). */
import type { PricesConfig } from '../config/prices-schema.js';
import { bitstampSource } from './sources/bitstamp.js';
import { coinbaseSource } from './sources/coinbase.js';
import { coingeckoSource } from './sources/coingecko.js';
import { krakenSource } from './sources/kraken.js';
import type { PriceSource, SourceName } from './source.js';

export function makeSource(name: SourceName, config: PricesConfig, coingeckoApiKey: string | undefined): PriceSource {
  const s = config.sources;
  switch (name) {
    case 'coinbase':
      return coinbaseSource(s.coinbase?.baseUrl);
    case 'kraken':
      return krakenSource(s.kraken?.baseUrl);
    case 'bitstamp':
      return bitstampSource(s.bitstamp?.baseUrl);
    case 'coingecko':
      return coingeckoSource({
        ...(s.coingecko?.baseUrl !== undefined ? { baseUrl: s.coingecko.baseUrl } : {}),
        ...(s.coingecko?.plan !== undefined ? { plan: s.coingecko.plan } : {}),
        ...(coingeckoApiKey !== undefined ? { apiKey: coingeckoApiKey } : {}),
      });
  }
}
