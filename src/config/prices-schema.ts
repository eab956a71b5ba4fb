/**
 * The `prices` config section (docs/prices.md): where the price cache lives, whether nightly and
 * month-end fill it first, each pair's policy (the sources in the order the journal tries them,
 * each with its interval) and the sources' base URLs (for tests and proxies). The CoinGecko key
 * is a secret: it comes from PAYEXPORT_COINGECKO_API_KEY, never from this file.
 */
import { z } from 'zod';

const baseUrl = z.string().url().refine((u) => /^https?:\/\//.test(u), 'expected an http(s) URL');
/** `<source>:<interval>`, e.g. `coinbase:1h` */
export const sourceRefSchema = z.string().regex(/^(coinbase|kraken|bitstamp|coingecko):(1h|1d)$/, 'expected <source>:<interval>, source one of coinbase, kraken, bitstamp, coingecko and interval 1h or 1d');

const pairPolicySchema = z.strictObject({
  /** tried in this order for each movement: the first whose close at or before it is fresh enough */
  sources: z.array(sourceRefSchema).min(1),
  /** a close older than this before the movement is stale (the journal's rule, docs/journal.md#valuation) */
  maxStalenessSeconds: z.number().int().min(1).default(86_400),
});

export const DEFAULT_POLICY_SOURCES = ['coinbase:1h', 'bitstamp:1h', 'kraken:1h', 'coingecko:1d'] as const;

export const pricesSchema = z.strictObject({
  /** the cache folder, relative to the config file's folder */
  cacheDir: z.string().min(1).default('prices'),
  /** nightly and month-end fetch what their window needs before reporting */
  autoFetch: z.boolean().default(false),
  /** `BTC-USD` → its policy; a pair not listed uses DEFAULT_POLICY_SOURCES */
  policy: z.record(z.string().regex(/^[A-Z]{3,5}-[A-Z]{3}$/, 'expected a pair such as BTC-USD'), pairPolicySchema).default({}),
  sources: z
    .strictObject({
      coinbase: z.strictObject({ baseUrl }).optional(),
      kraken: z.strictObject({ baseUrl }).optional(),
      bitstamp: z.strictObject({ baseUrl }).optional(),
      coingecko: z.strictObject({ baseUrl: baseUrl.optional(), plan: z.enum(['public', 'demo', 'pro']).optional() }).optional(),
    })
    .default({}),
  requestTimeoutMs: z.number().int().min(100).default(15_000),
  retry: z
    .strictObject({
      maxAttempts: z.number().int().min(1).max(20).default(5),
      /** retries for the whole fetch, every source together */
      runBudget: z.number().int().min(0).default(50),
      maxDelayMs: z.number().int().min(0).default(30_000),
      /** a Retry-After longer than this is cut to it */
      maxRetryAfterMs: z.number().int().min(0).default(60_000),
    })
    .default({ maxAttempts: 5, runBudget: 50, maxDelayMs: 30_000, maxRetryAfterMs: 60_000 }),
});

export type PricesConfig = Readonly<z.infer<typeof pricesSchema>>;
