/** A config file whose `prices` section points at the fake sources, for the CLI as a subprocess. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FakePriceSources } from './fake-price-sources.js';

export function writePricesConfig(dir: string, fake: FakePriceSources, prices: Record<string, unknown> = {}, rest: Record<string, unknown> = {}): string {
  const path = join(dir, 'payexport.json');
  writeFileSync(
    path,
    JSON.stringify({
      ...rest,
      prices: {
        cacheDir: 'prices',
        sources: { coinbase: { baseUrl: fake.baseUrl('coinbase') }, kraken: { baseUrl: fake.baseUrl('kraken') }, bitstamp: { baseUrl: fake.baseUrl('bitstamp') }, coingecko: { baseUrl: fake.baseUrl('coingecko') } },
        // real sleeps in a subprocess: short ones
        retry: { maxAttempts: 2, runBudget: 10, maxDelayMs: 20, maxRetryAfterMs: 50 },
        ...prices,
      },
    }),
  );
  return path;
}

/** `YYYY-MM-DD` of the UTC day `daysAgo` before today: inside every source's history. */
export function utcDaysAgo(daysAgo: number): string {
  return new Date(Date.now() - daysAgo * 86_400_000).toISOString().slice(0, 10);
}
