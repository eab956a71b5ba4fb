/**
 * How well the cache covers a window, per file of the pair's policy, without a request: what
 * `payexport doctor` reports for the open period. It reads the cache files and nothing else.
 */
import type { PricesConfig } from '../config/prices-schema.js';
import type { UtcInstant } from '../model/rows.js';
import { cacheFilePath, readCachedPrices } from './cache-file.js';
import { planFetch } from './fetch-plan.js';
import { instantToSeconds } from './interval.js';
import { parsePair } from './pair.js';
import { pairPolicy, rateSourceLabel } from './policy.js';

export interface SourceCoverage {
  /** `price_cache:kraken:1h` */
  label: string;
  file: string;
  /** closes the window needs (finished ones) */
  wanted: number;
  present: number;
  /** bucket starts (Unix seconds) of the missing closes */
  missing: number[];
}

export interface PriceCoverage {
  pair: string;
  /** the first source of the policy that covers the window, or null */
  coveredBy: string | null;
  sources: SourceCoverage[];
}

/** Coverage of the closes in [from, to] (UTC instants), as of `now`. `pair` is `BTC-USD`. */
export function priceCoverage(cacheDir: string, pair: string, window: { from: UtcInstant; to: UtcInstant }, options: { config: PricesConfig; now: Date }): PriceCoverage {
  const parsed = parsePair(pair);
  if (parsed === null) throw new Error(`not a pair: ${pair} (expected e.g. BTC-USD)`);
  const sources = pairPolicy(options.config, parsed).entries.map((entry): SourceCoverage => {
    const file = cacheFilePath(cacheDir, entry.source, parsed, entry.interval);
    const cached = readCachedPrices(file, entry.interval);
    const plan = planFetch({ fromSec: instantToSeconds(window.from), toSec: instantToSeconds(window.to), interval: entry.interval, nowSec: Math.floor(options.now.getTime() / 1000), closedThroughSec: null, historyStartSec: null, cached, maxBuckets: Number.MAX_SAFE_INTEGER });
    return { label: rateSourceLabel(entry), file, wanted: plan.wanted.length, present: plan.cached, missing: plan.wanted.filter((s) => !cached.has(s)) };
  });
  return { pair, coveredBy: sources.find((s) => s.missing.length === 0 && s.wanted > 0)?.label ?? null, sources };
}
