/**
 * `prices fetch` for one pair: walk the policy's sources in order; for each, plan what the window
 * still needs from it, prove the pair once, request the chunks (retrying within the budget), and
 * append each chunk's new closes to that source's file as soon as it is in — so a killed fetch
 * keeps what it had and a rerun asks only for the rest. Two sources never share a file: where
 * they disagree, both prices stay, each in its own file, and the policy decides which is used.
 *
 * With `untilComplete`, the walk stops at the first source that covers the whole window; the
 * sources before it keep their failures and gaps in the result (they are reported, not hidden).
 */
import { appendRows, cacheFilePath, cacheRow, readCachedPrices } from './cache-file.js';
import { planFetch } from './fetch-plan.js';
import { getParsed, type HttpGet, type RetryOptions } from './http-get.js';
import { INTERVAL_SECONDS, type PriceInterval } from './interval.js';
import type { PricePair } from './pair.js';
import { PriceSourceError } from './source-error.js';
import type { PriceSource } from './source.js';

export interface PolicySource {
  source: PriceSource;
  interval: PriceInterval;
}

export interface FetchPricesInput {
  cacheDir: string;
  pair: PricePair;
  sources: readonly PolicySource[];
  /** Unix seconds: closes wanted in [fromSec, toSec] */
  fromSec: number;
  toSec: number;
  nowSec: number;
  closedThroughSec: number | null;
  get: HttpGet;
  retry: RetryOptions;
  untilComplete: boolean;
}

export interface SourceOutcome {
  source: string;
  interval: PriceInterval;
  file: string;
  wanted: number;
  /** already in the file before this fetch */
  cached: number;
  appended: number;
  requests: number;
  /** bucket starts still missing: the source had nothing for them, or was not asked (closed, failed) */
  gaps: number[];
  /** of the gaps: older than the source's documented history */
  beyondHistory: number;
  /** of the gaps: in a closed period, left as they are */
  closed: number;
  /** closes the source now reports differently from the file (the file keeps its own) */
  revised: number;
  failure: PriceSourceError | null;
}

export interface FetchPricesResult {
  outcomes: SourceOutcome[];
  /** the first source (in policy order) whose file now covers the window, if any */
  complete: SourceOutcome | null;
}

export async function fetchPrices(input: FetchPricesInput): Promise<FetchPricesResult> {
  const outcomes: SourceOutcome[] = [];
  for (const entry of input.sources) {
    const outcome = await fetchOne(input, entry);
    outcomes.push(outcome);
    if (input.untilComplete && outcome.failure === null && outcome.gaps.length === 0) return { outcomes, complete: outcome };
  }
  return { outcomes, complete: outcomes.find((o) => o.failure === null && o.gaps.length === 0) ?? null };
}

async function fetchOne(input: FetchPricesInput, { source, interval }: PolicySource): Promise<SourceOutcome> {
  const file = cacheFilePath(input.cacheDir, source.name, input.pair, interval);
  const cached = readCachedPrices(file, interval);
  const plan = planFetch({
    fromSec: input.fromSec,
    toSec: input.toSec,
    interval,
    nowSec: input.nowSec,
    closedThroughSec: input.closedThroughSec,
    historyStartSec: source.historyStartSec(interval, input.nowSec),
    cached,
    maxBuckets: source.maxBuckets(interval),
  });
  const outcome: SourceOutcome = {
    source: source.name,
    interval,
    file,
    wanted: plan.wanted.length,
    cached: plan.cached,
    appended: 0,
    requests: 0,
    gaps: [...plan.closed, ...plan.beyondHistory],
    beyondHistory: plan.beyondHistory.length,
    closed: plan.closed.length,
    revised: 0,
    failure: null,
  };
  const length = INTERVAL_SECONDS[interval];
  const rowFacts = { source: source.name, interval, fetchedSec: input.nowSec };
  let pending = plan.chunks;
  try {
    if (pending.length > 0 && source.pairCheck !== undefined && source.parsePairCheck !== undefined) {
      outcome.requests++;
      await getParsed(input.get, source.pairCheck(input.pair), (response) => source.parsePairCheck!(input.pair, response), input.retry);
    }
    while (pending.length > 0) {
      const [chunk, ...rest] = pending as [(typeof pending)[number], ...typeof pending];
      const query = { pair: input.pair, interval, startSec: chunk.startSec, endSec: chunk.endSec };
      outcome.requests++;
      const candles = await getParsed(input.get, source.request(query), (response) => source.parse(query, response), input.retry);
      const byStart = new Map<number, (typeof candles)[number]>();
      // only finished buckets of this request, on the interval's boundaries: a source that sends more is not believed for them
      for (const c of candles) if (c.startSec >= chunk.startSec && c.startSec < chunk.endSec && c.startSec % length === 0 && c.startSec + length <= input.nowSec) byStart.set(c.startSec, c);
      const rows: string[] = [];
      for (const [start, candle] of [...byStart].sort((a, b) => a[0] - b[0])) {
        const known = cached.get(start);
        if (known !== undefined) {
          if (known !== candle.close) outcome.revised++;
          continue;
        }
        if (input.closedThroughSec !== null && start + length <= input.closedThroughSec) continue;
        rows.push(cacheRow(candle, rowFacts));
        cached.set(start, candle.close);
      }
      appendRows(file, rows);
      outcome.appended += rows.length;
      for (const start of chunk.buckets) if (!byStart.has(start)) outcome.gaps.push(start);
      pending = rest;
    }
  } catch (error) {
    if (!(error instanceof PriceSourceError)) throw error;
    outcome.failure = error;
    for (const chunk of pending) outcome.gaps.push(...chunk.buckets);
  }
  outcome.gaps.sort((a, b) => a - b);
  return outcome;
}
