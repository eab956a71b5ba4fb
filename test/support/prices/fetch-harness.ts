/**
 * Runs the real fetch (adapters, HTTP, retries, cache) against the fake sources, with the sleep
 * recorded instead of slept, the jitter fixed and the clock fixed: instant, deterministic runs.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { onTestFinished } from 'vitest';
import { pricesSchema, type PricesConfig } from '../../../src/config/prices-schema.js';
import { runPriceFetch, type PriceFetchRequest } from '../../../src/prices/fetch-job.js';
import type { FetchPricesResult } from '../../../src/prices/fetch-prices.js';
import type { HttpGet } from '../../../src/prices/http-get.js';
import type { FakePriceSources } from './fake-price-sources.js';

/** 2026-11-27T00:00:00Z: the fake sources' and the fetch's now */
export const NOW_SEC = Date.UTC(2026, 10, 27) / 1000;

export function tempCacheDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'payexport-prices-'));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

export function pricesConfigFor(fake: FakePriceSources, overrides: Record<string, unknown> = {}): PricesConfig {
  return pricesSchema.parse({
    sources: { coinbase: { baseUrl: fake.baseUrl('coinbase') }, kraken: { baseUrl: fake.baseUrl('kraken') }, bitstamp: { baseUrl: fake.baseUrl('bitstamp') }, coingecko: { baseUrl: fake.baseUrl('coingecko') } },
    retry: { maxAttempts: 4, runBudget: 20, maxDelayMs: 8_000, maxRetryAfterMs: 30_000 },
    requestTimeoutMs: 5_000,
    ...overrides,
  });
}

export interface HarnessRun {
  result: FetchPricesResult;
  sleeps: number[];
}

export async function fetchWith(config: PricesConfig, cacheDir: string, request: PriceFetchRequest, options: { get?: HttpGet; nowSec?: number } = {}): Promise<HarnessRun> {
  const sleeps: number[] = [];
  const result = await runPriceFetch(
    {
      config,
      cacheDir,
      coingeckoApiKey: undefined,
      nowSec: options.nowSec ?? NOW_SEC,
      sleep: async (ms) => {
        sleeps.push(ms);
      },
      random: () => 0.5,
      ...(options.get !== undefined ? { get: options.get } : {}),
    },
    request,
  );
  return { result, sleeps };
}

/** Unix seconds of a UTC day's start. */
export function day(text: string): number {
  return Date.parse(`${text}T00:00:00Z`) / 1000;
}
