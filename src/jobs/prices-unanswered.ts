/**
 * A run that cannot value stops once, before it writes books (docs/prices.md#auto-fetch): exit 75
 * with one line, when BOTH hold after the auto-fetch of its window —
 *
 *   valuation needs a price nothing has   the journal's own lookup (the price file, then the cache
 *                                         files of the policy, each within its staleness) leaves
 *                                         an instant of the window up to now unpriced
 *   no source of the policy answered      every source failed without an answer: no connection,
 *                                         a timeout, 429, a 5xx (source-error.ts answeredNothing)
 *
 * A source that answers — with a gap, "gone", another pair — is not temporary: the run goes on and
 * its findings say what is missing. Without this refusal a machine without network wrote a month
 * whose every BTC line needed a price (issue 52: 1,882 errors hiding the real anomalies).
 */
import type { JournalConfig } from '../config/journal-schema.js';
import type { PricesConfig } from '../config/prices-schema.js';
import { loadPriceTables } from '../journal/load-prices.js';
import type { Window } from '../model/window.js';
import type { FetchPricesResult } from '../prices/fetch-prices.js';
import { pairKey, type PricePair } from '../prices/pair.js';
import { answeredNothing } from '../prices/source-error.js';
import { AppError } from '../util/errors.js';

export interface UnansweredInput {
  journal: JournalConfig;
  prices: PricesConfig;
  /** the config file's folder (paths in the config are relative to it) */
  baseDir: string;
  /** the config file as the run was given it, for the fix command */
  configShown: string | undefined;
  pair: PricePair;
  /** `month-end 2026-10` */
  run: string;
  window: Pick<Window, 'from' | 'to'>;
  now: Date;
  result: FetchPricesResult;
}

const ms = (instant: string): number => Date.parse(instant.slice(0, 23) + 'Z');
const day = (at: number): string => new Date(at).toISOString().slice(0, 10);

/** The run's refusal (exit 75), or null when the run can go on. */
export function unansweredPrices(input: UnansweredInput): AppError | null {
  const { outcomes } = input.result;
  if (outcomes.length === 0 || !outcomes.every((o) => o.failure !== null && answeredNothing(o.failure))) return null;
  const fromMs = ms(input.window.from);
  const toMs = Math.min(ms(input.window.to), input.now.getTime());
  if (toMs <= fromMs) return null;
  const chain = loadPriceTables(input.journal, input.baseDir, input.prices).get('btc');
  const gapMs = chain === undefined ? fromMs : chain.firstUncoveredMs(fromMs, toMs);
  if (gapMs === null) return null;
  const tried = outcomes.map((o) => `${o.source}:${o.interval} ${stripSource(o.failure!.message, o.failure!.source)}`).join('; ');
  const config = input.configShown === undefined ? '' : ` --config ${input.configShown}`;
  const fetch = `payexport prices fetch --currency ${input.pair.base} --books ${input.pair.quote} --from ${day(fromMs)} --to ${day(toMs - 1)}${config}`;
  const message =
    `${input.run} cannot value its ${input.pair.base}: no price for ${pairKey(input.pair)} at ${new Date(gapMs).toISOString()} in the price file or the cache, and no price source answered (${tried}); ` +
    `nothing was written — run it again once a source answers, or fill the cache first (${fetch}), or name a price file for btc in journal.prices, or set prices.autoFetch to false to run with what the cache holds (docs/prices.md#auto-fetch)`;
  return new AppError('tempFail', 'price_sources_unanswered', message);
}

/** A PriceSourceError's message begins with its source (a host for a transport failure): said once. */
function stripSource(message: string, source: string): string {
  return message.startsWith(`${source}: `) ? message.slice(source.length + 2) : message;
}
