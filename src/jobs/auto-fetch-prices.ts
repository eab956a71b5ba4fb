/**
 * `prices.autoFetch`: before nightly or month-end values anything, fill the price cache with the
 * closes its window needs (docs/prices.md#auto-fetch). When no source answered at all and the
 * books lack a price, the run stops there with exit 75 (prices-unanswered.ts). Any other fetch
 * that fails is a finding (`journal.price_fetch_failed`, with gaps as `journal.price_gap`), never
 * a run stopped — and never a run that values with nothing: what the cache and the price file hold
 * still values what it can, and every movement left without a price is a `journal.needs_price`.
 */
import { dirname, resolve } from 'node:path';
import type { Finding } from '../model/results.js';
import { finding } from '../reconcile/findings.js';
import { priceCacheDir } from '../journal/load-prices.js';
import { fetchVerdict, outcomeLine, runPriceFetch } from '../prices/fetch-job.js';
import { describeRuns } from '../prices/fetch-plan.js';
import type { FetchPricesResult } from '../prices/fetch-prices.js';
import { instantToSeconds } from '../prices/interval.js';
import { abortableSleep } from '../util/abortable-sleep.js';
import type { JobEnv } from './job-env.js';
import type { PipelineSpec } from './pipeline-spec.js';
import { unansweredPrices } from './prices-unanswered.js';

export async function autoFetchPrices(env: JobEnv, spec: PipelineSpec): Promise<Finding[]> {
  const { config, configFile, secrets } = env.loaded;
  if (config.prices === undefined || config.journal === undefined) return [];
  const baseDir = configFile === undefined ? env.cwd : dirname(resolve(env.cwd, configFile));
  const pair = { base: 'BTC', quote: config.journal.booksCurrency };
  const subject = `prices:BTC-${pair.quote}:${spec.period.label}`;
  let result: FetchPricesResult;
  try {
    result = await runPriceFetch(
      {
        config: config.prices,
        cacheDir: priceCacheDir(config.prices, baseDir),
        coingeckoApiKey: secrets.coingeckoApiKey,
        nowSec: Math.floor(env.clock().getTime() / 1000),
        sleep: (ms) => abortableSleep(ms, env.signal),
        random: Math.random,
        signal: env.signal,
      },
      { pair, fromSec: instantToSeconds(spec.period.window.from), toSec: instantToSeconds(spec.period.window.to) },
    );
  } catch (error) {
    return [finding('journal.price_fetch_failed', { subject_kind: 'run', subject_id: subject, wallet_id: null, currency: 'btc', message: `the price fetch stopped: ${error instanceof Error ? error.message : String(error)}` })];
  }
  for (const outcome of result.outcomes) env.log.info({ source: outcome.source, interval: outcome.interval, appended: outcome.appended, gaps: outcome.gaps.length }, outcomeLine(pair, outcome));
  const verdict = fetchVerdict(pair, result);
  if (verdict.kind === null) return gapFindings(subject, result);
  // nothing answered and the books lack a price: one refusal (75) before anything is written, not a finding per line
  const refusal = unansweredPrices({ journal: config.journal, prices: config.prices, baseDir, configShown: configFile, pair, run: `${spec.command} ${spec.period.label}`, window: spec.period.window, now: env.clock(), result });
  if (refusal !== null) throw refusal;
  return [finding('journal.price_fetch_failed', { subject_kind: 'run', subject_id: subject, wallet_id: null, currency: 'btc', message: `${verdict.message} (${verdict.kind})` }), ...gapFindings(subject, result)];
}

/** Gaps are listed even when a later source of the policy covered them: the journal falls back there, and says so in rate_source. */
function gapFindings(subject: string, result: FetchPricesResult): Finding[] {
  return result.outcomes
    .filter((o) => o.failure === null && o.gaps.length > 0)
    .map((o) => finding('journal.price_gap', { subject_kind: 'run', subject_id: `${subject}:${o.source}:${o.interval}`, wallet_id: null, currency: 'btc', actual: BigInt(o.gaps.length), message: `${o.source}:${o.interval} has no close for ${describeRuns(o.gaps, o.interval)}` }));
}
