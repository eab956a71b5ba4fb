/**
 * The job behind `payexport prices fetch` (docs/prices.md#fetch): the pair's policy (or one
 * source), the window's closes into the cache, one summary line per source on stdout, and the
 * verdict as the exit: 0 when a source covers the window, else the most pressing failure's code
 * (66 no data / gaps, 68 source gone, 75 rate limited, 76 wrong currency, 69 unavailable), with
 * one line that lists what is missing.
 */
import { dirname, resolve } from 'node:path';
import type { LoadedConfig } from '../config/load.js';
import { pricesSchema } from '../config/prices-schema.js';
import { priceCacheDir } from '../journal/load-prices.js';
import { fetchVerdict, outcomeLine, runPriceFetch, type PriceFetchRequest } from '../prices/fetch-job.js';
import type { HttpGet } from '../prices/http-get.js';
import { AppError } from '../util/errors.js';

export interface PricesFetchEnv {
  loaded: LoadedConfig;
  cwd: string;
  clock: () => Date;
  sleep: (ms: number) => Promise<void>;
  signal?: AbortSignal;
  print(line: string): void;
  /** tests: the transport */
  get?: HttpGet;
}

export async function pricesFetchJob(env: PricesFetchEnv, request: PriceFetchRequest, cacheDirFlag?: string): Promise<number> {
  const { config, configFile, secrets } = env.loaded;
  const prices = config.prices ?? pricesSchema.parse({});
  const baseDir = configFile === undefined ? env.cwd : dirname(resolve(env.cwd, configFile));
  const cacheDir = cacheDirFlag !== undefined ? resolve(env.cwd, cacheDirFlag) : priceCacheDir(prices, baseDir);
  const result = await runPriceFetch(
    {
      config: prices,
      cacheDir,
      coingeckoApiKey: secrets.coingeckoApiKey,
      nowSec: Math.floor(env.clock().getTime() / 1000),
      sleep: env.sleep,
      random: Math.random,
      ...(env.signal !== undefined ? { signal: env.signal } : {}),
      ...(env.get !== undefined ? { get: env.get } : {}),
    },
    request,
  );
  for (const outcome of result.outcomes) env.print(outcomeLine(request.pair, outcome));
  const verdict = fetchVerdict(request.pair, result);
  if (verdict.kind !== null && verdict.exit !== 'ok') throw new AppError(verdict.exit, `price_${verdict.kind}`, verdict.message);
  env.print(`prices: ${verdict.message}; cache ${cacheDir}`);
  return 0;
}
