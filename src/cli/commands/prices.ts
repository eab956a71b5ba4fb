/**
 * `payexport prices fetch`: fill the price cache for a pair and a UTC range (docs/prices.md).
 * Thin (docs/style.md#8-the-command-line): flags → config → the job → exit code.
 */
import type { Argv, CommandModule } from 'yargs';
import type { CliContext } from '../cli-context.js';
import { toUtcInstant } from '../../model/instant.js';
import { usageError } from '../../util/errors.js';
import { abortableSleep } from '../../util/abortable-sleep.js';
import { exitCodesEpilog } from '../command-exit-codes.js';
import { examplesEpilog } from '../help.js';
import { loadCliConfig } from '../run-job.js';
import { configFileLine } from '../../config/config-file-choice.js';

interface FetchArgs {
  currency: string;
  books?: string;
  from: string;
  to: string;
  source?: 'coinbase' | 'kraken' | 'bitstamp' | 'coingecko';
  interval?: '1h' | '1d';
  config?: string;
  'cache-dir'?: string;
}

/** `YYYY-MM-DD` is that UTC day (and `--to` includes its day); an RFC 3339 instant is taken as is. */
function bound(text: string, end: boolean, flag: string): number {
  const day = /^\d{4}-\d{2}-\d{2}$/.test(text) ? toUtcInstant(`${text}T00:00:00Z`) : null;
  const instant = day ?? toUtcInstant(text);
  if (instant === null) throw usageError('bad_date', `${flag} '${text}': expected YYYY-MM-DD (a UTC day) or an RFC 3339 instant`);
  const sec = Math.floor(Date.parse(instant.slice(0, 23) + 'Z') / 1000);
  return day !== null && end ? sec + 86_400 : sec;
}

export function pricesCommand(ctx: CliContext): CommandModule<object, object> {
  const fetch: CommandModule<object, FetchArgs> = {
    command: 'fetch',
    describe: 'Fetch the closes a UTC range needs into the price cache (appends only what is missing)',
    builder: (y: Argv<object>) =>
      y
        .option('currency', { type: 'string', default: 'BTC', describe: 'the currency priced (BTC)' })
        .option('books', { type: 'string', describe: "the books' currency (default: journal.booksCurrency, else USD)" })
        .option('from', { type: 'string', demandOption: true, describe: 'first UTC day (YYYY-MM-DD) or an RFC 3339 instant' })
        .option('to', { type: 'string', demandOption: true, describe: 'last UTC day, included (or an RFC 3339 instant)' })
        .option('source', { choices: ['coinbase', 'kraken', 'bitstamp', 'coingecko'] as const, describe: "one source (default: the pair's policy, in order, until one covers the range)" })
        .option('interval', { choices: ['1h', '1d'] as const, describe: "candle interval (default: the policy's)" })
        .option('config', { type: 'string', describe: 'JSON config file, for its `prices` section (default: env PAYEXPORT_CONFIG, else config/payexport.json in the current folder)' })
        .option('cache-dir', { type: 'string', describe: 'the cache folder (default: prices.cacheDir, relative to the config file)' })
        .epilog(
          `${examplesEpilog([
            ['payexport prices fetch --from 2026-10-01 --to 2026-10-31', "October's hourly BTC-USD closes, from the policy's first source that has them"],
            ['payexport prices fetch --source kraken --interval 1d --from 2026-10-01 --to 2026-10-31', 'one source, daily closes (UTC days)'],
          ])}\n\n${exitCodesEpilog('prices fetch')}`,
        ) as unknown as Argv<FetchArgs>,
    handler: async (args) => {
      if (args.currency.toUpperCase() !== 'BTC') throw usageError('bad_currency', `--currency ${args.currency}: the price cache prices BTC only`);
      // the price sources need no API key: a key variable the config names but this shell lacks is no reason to stop
      const loaded = loadCliConfig(ctx, { ...(args.config !== undefined ? { config: args.config } : {}) }, { collectSecretProblems: true });
      ctx.stdout.write(`${configFileLine(loaded.configChoice)}\n`);
      const books = (args.books ?? loaded.config.journal?.booksCurrency ?? 'USD').toUpperCase();
      if (!/^[A-Z]{3}$/.test(books)) throw usageError('bad_currency', `--books ${books}: expected an ISO 4217 code such as USD`);
      const fromSec = bound(args.from, false, '--from');
      const toSec = bound(args.to, true, '--to');
      if (bound(args.to, false, '--to') < fromSec) throw usageError('bad_range', `--from ${args.from} is after --to ${args.to}`);
      const { pricesFetchJob } = await import('../../jobs/prices-fetch-job.js');
      const controller = new AbortController();
      ctx.exitCode = await pricesFetchJob(
        { loaded, cwd: ctx.cwd, clock: ctx.clock, sleep: (ms) => abortableSleep(ms, controller.signal), signal: controller.signal, print: (line) => ctx.stdout.write(ctx.scrubber.scrub(line) + '\n') },
        { pair: { base: 'BTC', quote: books }, fromSec, toSec, ...(args.source !== undefined ? { source: args.source } : {}), ...(args.interval !== undefined ? { interval: args.interval } : {}) },
        args['cache-dir'],
      );
    },
  };
  return {
    command: 'prices',
    describe: 'The price cache: fetch BTC closes from public sources (docs/prices.md)',
    builder: (y: Argv<object>) => y.command(fetch).demandCommand(1, 'name what to do: payexport prices fetch (--help for its options)').epilog(`\n${exitCodesEpilog('prices fetch')}`),
    handler: () => undefined,
  };
}
