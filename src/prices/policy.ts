/**
 * Which price (docs/prices.md#policy): per pair, the sources in the order they are tried, each
 * with its interval; for a movement, the close of the interval at or before it, from the first
 * source whose close is within `maxStalenessSeconds`. The journal names what it used in
 * `rate_source` as `price_cache:<source>:<interval>`.
 */
import { DEFAULT_POLICY_SOURCES, type PricesConfig } from '../config/prices-schema.js';
import type { PriceInterval } from './interval.js';
import { pairKey, type PricePair } from './pair.js';
import type { SourceName } from './source.js';

export interface PolicyEntry {
  source: SourceName;
  interval: PriceInterval;
}

export interface PairPolicy {
  entries: PolicyEntry[];
  maxStalenessSeconds: number;
}

export function pairPolicy(config: PricesConfig, pair: PricePair): PairPolicy {
  const configured = config.policy[pairKey(pair)];
  const refs = configured?.sources ?? DEFAULT_POLICY_SOURCES;
  return {
    entries: refs.map((ref) => {
      const [source, interval] = ref.split(':') as [SourceName, PriceInterval];
      return { source, interval };
    }),
    maxStalenessSeconds: configured?.maxStalenessSeconds ?? 86_400,
  };
}

/** The label a valuation from this entry carries in the journal's `rate_source`. */
export function rateSourceLabel(entry: PolicyEntry): `price_cache:${string}` {
  return `price_cache:${entry.source}:${entry.interval}`;
}
