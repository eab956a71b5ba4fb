/**
 * A price fetch as `payexport prices fetch` and the auto-fetch of nightly and month-end run it:
 * the policy's sources for the pair (or the one named), the cache's closed-through mark, the
 * retry budget, then the verdict — the exit a scheduler acts on (docs/prices.md#failures).
 */
import type { PricesConfig } from '../config/prices-schema.js';
import { RetryBudget } from '../util/retry.js';
import type { ExitCodeName } from '../util/exit-codes.js';
import { usageError } from '../util/errors.js';
import { readClosedThrough } from './closed-marker.js';
import { fetchPrices, type FetchPricesResult, type SourceOutcome } from './fetch-prices.js';
import { describeRuns } from './fetch-plan.js';
import { fetchGet, type HttpGet } from './http-get.js';
import { instantToSeconds, type PriceInterval } from './interval.js';
import { makeSource } from './make-source.js';
import { pairKey, type PricePair } from './pair.js';
import { pairPolicy } from './policy.js';
import { exitNameOf, FAILURE_PRECEDENCE, type PriceFailureKind } from './source-error.js';
import type { SourceName } from './source.js';

export interface PriceFetchDeps {
  config: PricesConfig;
  /** absolute */
  cacheDir: string;
  coingeckoApiKey: string | undefined;
  nowSec: number;
  sleep: (ms: number) => Promise<void>;
  random: () => number;
  /** default: fetch with the config's timeout */
  get?: HttpGet;
  signal?: AbortSignal;
}

export interface PriceFetchRequest {
  pair: PricePair;
  fromSec: number;
  toSec: number;
  /** one source only (else the policy's, in order, until one covers the window) */
  source?: SourceName;
  interval?: PriceInterval;
}

export interface PriceFetchVerdict {
  exit: ExitCodeName | 'ok';
  kind: PriceFailureKind | null;
  /** one line: what is missing and why, for stderr and the finding */
  message: string;
}

export async function runPriceFetch(deps: PriceFetchDeps, request: PriceFetchRequest): Promise<FetchPricesResult> {
  const policy = pairPolicy(deps.config, request.pair);
  const entries = request.source !== undefined
    ? [{ source: request.source, interval: request.interval ?? policy.entries.find((e) => e.source === request.source)?.interval ?? '1h' }]
    : policy.entries.filter((e) => request.interval === undefined || e.interval === request.interval);
  if (entries.length === 0) throw usageError('no_price_source', `no source of the ${pairKey(request.pair)} policy has the interval ${request.interval ?? '?'}: name one with --source`);
  const closed = readClosedThrough(deps.cacheDir);
  return fetchPrices({
    cacheDir: deps.cacheDir,
    pair: request.pair,
    sources: entries.map((e) => ({ source: makeSource(e.source, deps.config, deps.coingeckoApiKey), interval: e.interval })),
    fromSec: request.fromSec,
    toSec: request.toSec,
    nowSec: deps.nowSec,
    closedThroughSec: closed === null ? null : instantToSeconds(closed),
    get: deps.get ?? fetchGet(deps.config.requestTimeoutMs, deps.signal),
    retry: {
      policy: { maxAttempts: deps.config.retry.maxAttempts, baseDelayMs: 500, maxDelayMs: deps.config.retry.maxDelayMs, maxRetryAfterMs: deps.config.retry.maxRetryAfterMs, runRetryBudget: deps.config.retry.runBudget },
      budget: new RetryBudget(deps.config.retry.runBudget),
      sleep: deps.sleep,
      random: deps.random,
    },
    untilComplete: request.source === undefined,
  });
}

/** ok when one source covers the window; else the most pressing failure, or `no_data` for gaps alone. */
export function fetchVerdict(pair: PricePair, result: FetchPricesResult): PriceFetchVerdict {
  if (result.complete !== null) return { exit: 'ok', kind: null, message: `${pairKey(pair)}: covered by ${result.complete.source}:${result.complete.interval}` };
  const kinds = result.outcomes.map((o) => o.failure?.kind).filter((k): k is PriceFailureKind => k !== undefined);
  const kind = FAILURE_PRECEDENCE.find((k) => kinds.includes(k)) ?? 'no_data';
  const parts = result.outcomes.map((o) => `${o.source}:${o.interval} ${o.failure !== null ? `failed (${o.failure.kind}: ${o.failure.message})` : `has ${o.gaps.length} gap(s): ${describeRuns(o.gaps, o.interval, 2)}`}`);
  return { exit: exitNameOf(kind), kind, message: `prices for ${pairKey(pair)} incomplete — ${parts.join('; ') || 'no source in the policy'}` };
}

/** One line per source for the summary. */
export function outcomeLine(pair: PricePair, o: SourceOutcome): string {
  const head = `${o.source}:${o.interval} ${pairKey(pair)}: ${o.wanted} close(s) wanted, ${o.cached} cached, ${o.appended} appended in ${o.requests} request(s)`;
  const notes = [
    o.revised > 0 ? `${o.revised} close(s) the source now reports differently (the cache keeps its own)` : null,
    o.closed > 0 ? `${o.closed} in a closed period left as they are` : null,
    o.beyondHistory > 0 ? `${o.beyondHistory} older than the source's history` : null,
    o.gaps.length > 0 ? `gaps: ${describeRuns(o.gaps, o.interval)}` : null,
    o.failure !== null ? `failed: ${o.failure.kind}: ${o.failure.message}` : null,
  ].filter((n) => n !== null);
  return notes.length === 0 ? head : `${head}; ${notes.join('; ')}`;
}

