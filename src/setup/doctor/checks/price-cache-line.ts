/**
 * The price cache's line of the price check (docs/prices.md#cache): for the pair the journal
 * values (BTC in the books' currency), which source covers the open period — looked up as the
 * journal looks it up: the user's price file first, then the cache files in the policy's order,
 * each within its staleness (journal/load-prices.ts). A pair that chain covers passes; otherwise
 * the line names the closes the policy's first source is missing and the fetch that fills them.
 * With `prices.autoFetch`, tonight's run fetches what is missing — if a source answers: each
 * source is then asked once for the most recent closes it lacks (prices/probe.ts, nothing
 * written), and the line is ✓ only when one sends closes. Otherwise ✗: the run would stop with
 * exit 75 (or value nothing), and the fix says how to price the period without a source.
 */
import type { JournalConfig } from '../../../config/journal-schema.js';
import type { PricesConfig } from '../../../config/prices-schema.js';
import { loadPriceTables, priceCacheDir } from '../../../journal/load-prices.js';
import type { UtcInstant } from '../../../model/rows.js';
import { priceCoverage, type PriceCoverage, type SourceCoverage } from '../../../prices/coverage.js';
import { probeSources, type ProbeAnswer } from '../../../prices/probe.js';
import type { SourceName } from '../../../prices/source.js';
import { INTERVAL_SECONDS, secondsToText, type PriceInterval } from '../../../prices/interval.js';
import { fail, pass, type CheckLine } from '../check.js';

export interface CacheLineInput {
  journal: JournalConfig;
  prices: PricesConfig;
  /** the config file's folder (paths in the config are relative to it) */
  baseDir: string;
  /** the config file as doctor was given it, for the fix command */
  configShown: string | undefined;
  /** the open period: its first instant, its first day, and now */
  from: UtcInstant;
  firstDay: string;
  now: Date;
  /** whether the user's price file alone covers the period (it comes first in the journal's lookup) */
  fileCovers: boolean;
  coingeckoApiKey: string | undefined;
}

/** Consecutive missing bucket starts as spans of the closes they lack (closes are stamped at the bucket's end). */
function missingSpans(source: SourceCoverage): string {
  const interval = source.label.split(':')[2] as PriceInterval;
  const length = INTERVAL_SECONDS[interval];
  const spans: Array<[number, number]> = [];
  for (const start of source.missing) {
    const last = spans[spans.length - 1];
    if (last !== undefined && start === last[1] + length) last[1] = start;
    else spans.push([start, start]);
  }
  const shown = spans.slice(0, 3).map(([a, b]) => (a === b ? secondsToText(a + length) : `${secondsToText(a + length)} .. ${secondsToText(b + length)}`));
  return shown.join(', ') + (spans.length > 3 ? ` and ${spans.length - 3} more span(s)` : '');
}

/** `payexport prices fetch` over the UTC days that hold the missing closes (`--to` is included). */
function fetchCommand(source: SourceCoverage, booksCurrency: string, configShown: string | undefined): string {
  const interval = source.label.split(':')[2] as PriceInterval;
  const length = INTERVAL_SECONDS[interval];
  const firstClose = (source.missing[0] as number) + length;
  const lastClose = (source.missing[source.missing.length - 1] as number) + length;
  const fromDay = secondsToText(firstClose).slice(0, 10);
  // a close stamped at 00:00 belongs to the day before it (the end of that day)
  const toDay = secondsToText(lastClose - 1).slice(0, 10);
  return `payexport prices fetch --currency BTC --books ${booksCurrency} --from ${fromDay} --to ${toDay}${configShown === undefined ? '' : ` --config ${configShown}`}`;
}

function describeSources(sources: readonly SourceCoverage[]): string {
  return sources.map((s) => (s.present === 0 ? `${s.label.slice('price_cache:'.length)} has none` : `${s.label.slice('price_cache:'.length)} misses ${s.missing.length} of ${s.wanted}`)).join(', ');
}

export async function priceCacheLine(input: CacheLineInput): Promise<CheckLine> {
  const { journal, prices, now } = input;
  const pair = `BTC-${journal.booksCurrency}`;
  const cacheDir = priceCacheDir(prices, input.baseDir);
  const title = `price cache ${pair} (${prices.cacheDir})`;
  const span = `the open period ${input.firstDay} .. now`;
  const toInstant = `${now.toISOString().slice(0, 19)}.000000Z` as UtcInstant;
  let coverage: PriceCoverage;
  try {
    coverage = priceCoverage(cacheDir, pair, { from: input.from, to: toInstant }, { config: prices, now });
  } catch (error) {
    return fail(title, error instanceof Error ? error.message : String(error), `fix or remove the cache file named above, then run payexport prices fetch again`);
  }
  if (input.fileCovers) return pass(title, `${span} is covered by the price file first (the journal looks there before the cache)`);
  if (coverage.coveredBy !== null) {
    const source = coverage.sources.find((s) => s.label === coverage.coveredBy) as SourceCoverage;
    return pass(title, `${coverage.coveredBy} covers ${span} (${source.present} of ${source.wanted} closes)`);
  }
  // no single file has every close; the journal's chain (each file within its staleness) may still price every instant
  const chain = loadPriceTables(journal, input.baseDir, prices).get('btc');
  const fromMs = Date.parse(input.from.slice(0, 23) + 'Z');
  if (chain !== undefined && chain.firstUncoveredMs(fromMs, now.getTime()) === null) {
    return pass(title, `${span} is covered by the price file and the cache together, each price within its staleness (${describeSources(coverage.sources)} closes)`);
  }
  const first = coverage.sources[0];
  if (first === undefined || first.wanted === 0) return pass(title, `${span} needs no close yet`);
  const missing = `${first.label} is missing ${first.missing.length} of ${first.wanted} closes (${missingSpans(first)})${coverage.sources.length > 1 ? `; after it in the policy: ${describeSources(coverage.sources.slice(1))}` : ''}`;
  const fetch = fetchCommand(first, journal.booksCurrency, input.configShown);
  if (!prices.autoFetch) return fail(title, `no source covers ${span}: ${missing}`, fetch);
  // nightly and month-end fetch their own window before they value it: the gap is tonight's first step — when a source answers
  const answers = await probeSources(prices, input.coingeckoApiKey, { base: 'BTC', quote: journal.booksCurrency }, coverage.sources.map((s) => {
    const [, source, interval] = s.label.split(':') as [string, SourceName, PriceInterval];
    return { source, interval, missing: s.missing };
  }));
  const answering = answers.find((a) => a.closes > 0);
  if (answering !== undefined) {
    return pass(title, `${span} is not in the cache yet (${missing}); ${answering.label} answers now (${answering.closes} of the most recent closes missing): nightly and month-end fetch what their window needs first (prices.autoFetch); to fetch it now: ${fetch}`);
  }
  return fail(
    title,
    `${span} is not in the cache (${missing}) and no source of the policy sends closes now (${describeAnswers(answers)}): tonight's run cannot value its BTC (it stops with exit 75 while no source answers)`,
    `once a source answers: ${fetch}; without one, name a price file for btc in journal.prices (CSV "timestamp,price") covering ${span}, or set prices.autoFetch to false (each BTC movement without a price is then listed, docs/prices.md#auto-fetch)`,
  );
}

function describeAnswers(answers: readonly ProbeAnswer[]): string {
  return answers.map((a) => `${a.label} ${a.problem ?? 'sent no closes'}`).join('; ');
}
