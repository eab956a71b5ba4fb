/**
 * Does a source of the policy answer NOW with closes the cache lacks? What `payexport doctor` asks
 * before it tells a user with `prices.autoFetch` that tonight's run will fetch its window: one
 * request per source (no retry, the config's timeout), for the most recent of the closes that
 * source's file lacks — recent closes are inside every source's history. Nothing is written: the
 * cache is the run's to fill. The sources are asked side by side (the policy's few entries, not a
 * list the data decides: docs/style.md#2-concurrency), so a machine without network waits one
 * timeout, not one per source.
 */
import type { PricesConfig } from '../config/prices-schema.js';
import { fetchGet, type HttpGet } from './http-get.js';
import { INTERVAL_SECONDS, type PriceInterval } from './interval.js';
import { makeSource } from './make-source.js';
import type { PricePair } from './pair.js';
import { PriceSourceError } from './source-error.js';
import type { SourceName } from './source.js';

export interface ProbeTarget {
  source: SourceName;
  interval: PriceInterval;
  /** bucket starts (Unix seconds) the source's cache file lacks, ascending */
  missing: readonly number[];
}

export interface ProbeAnswer {
  /** `coinbase:1h` */
  label: string;
  /** closes the source sent for the buckets asked */
  closes: number;
  /** why it sent none: its error, or that it answered without closes */
  problem: string | null;
}

/** The buckets asked of each source: at most a day's worth of hours, or a week of days. */
const PROBE_BUCKETS: Readonly<Record<PriceInterval, number>> = { '1h': 24, '1d': 7 };

export async function probeSources(config: PricesConfig, coingeckoApiKey: string | undefined, pair: PricePair, targets: readonly ProbeTarget[], get: HttpGet = fetchGet(config.requestTimeoutMs)): Promise<ProbeAnswer[]> {
  return Promise.all(targets.map((target) => probeOne(config, coingeckoApiKey, pair, target, get)));
}

async function probeOne(config: PricesConfig, coingeckoApiKey: string | undefined, pair: PricePair, target: ProbeTarget, get: HttpGet): Promise<ProbeAnswer> {
  const label = `${target.source}:${target.interval}`;
  const last = target.missing[target.missing.length - 1];
  if (last === undefined) return { label, closes: 0, problem: 'lacks nothing' };
  const source = makeSource(target.source, config, coingeckoApiKey);
  const length = INTERVAL_SECONDS[target.interval];
  const buckets = Math.min(PROBE_BUCKETS[target.interval], source.maxBuckets(target.interval));
  const endSec = last + length;
  const startSec = Math.max(target.missing[0] as number, endSec - buckets * length);
  const query = { pair, interval: target.interval, startSec, endSec };
  try {
    const candles = source.parse(query, await get(source.request(query)));
    const closes = candles.filter((c) => c.startSec >= startSec && c.startSec < endSec).length;
    return { label, closes, problem: closes > 0 ? null : 'answered without closes for the most recent ones missing' };
  } catch (error) {
    if (!(error instanceof PriceSourceError)) throw error;
    const message = error.message.startsWith(`${error.source}: `) ? error.message.slice(error.source.length + 2) : error.message;
    return { label, closes: 0, problem: `${error.kind}: ${message}` };
  }
}
