/** A month-end that closes its period moves the price cache's closed-through mark to the period's end (docs/prices.md#closed). */
import { dirname, resolve } from 'node:path';
import type { UtcInstant } from '../model/rows.js';
import { priceCacheDir } from '../journal/load-prices.js';
import { markClosedThrough } from '../prices/closed-marker.js';
import type { JobEnv } from './job-env.js';

export function markPricesClosed(env: JobEnv, through: UtcInstant): void {
  const { config, configFile } = env.loaded;
  if (config.prices === undefined) return;
  const baseDir = configFile === undefined ? env.cwd : dirname(resolve(env.cwd, configFile));
  markClosedThrough(priceCacheDir(config.prices, baseDir), through);
}
