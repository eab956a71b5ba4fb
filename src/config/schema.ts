/**
 * The configuration schema: defaults < config file < env < flags, validated once into a readonly
 * object (docs/style.md#5-configuration). Secrets are NOT part of this schema: they come from env variables or
 * files named here (see secrets.ts), so a committed config file can never hold one.
 */
import { z } from 'zod';
import { notifySchema } from './notify-schema.js';
import { listenSchema } from './listen-schema.js';
import { journalSchema } from './journal-schema.js';
import { lotsSchema } from './lots-schema.js';
import { deliverySchema } from './delivery-schema.js';
import { pricesSchema } from './prices-schema.js';

const uuid = z.string().regex(/^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/, 'expected a UUID');
const envVarName = z.string().regex(/^[A-Z_][A-Z0-9_]*$/, 'expected an environment variable name such as PAYEXPORT_API_KEY_STAGING');
const baseUrl = z
  .string()
  .url('expected a URL such as https://voltageapi.com/v1')
  .refine((u) => /^https?:\/\//.test(u), 'expected an http(s) URL')
  .transform((u) => u.replace(/\/+$/, ''));

export const ENVIRONMENT_KINDS = ['production', 'staging'] as const;

/** One environment of the organization; API keys are scoped to one environment. */
export const environmentSchema = z.strictObject({
  id: uuid,
  name: z.string().optional(),
  kind: z.enum(ENVIRONMENT_KINDS).default('production'),
  /** staging lives at its own base URL */
  baseUrl: baseUrl.optional(),
  /** the env variable that holds this environment's API key (or bearer token) */
  apiKeyEnv: envVarName.optional(),
  apiKeyFile: z.string().optional(),
  bearerTokenEnv: envVarName.optional(),
  bearerTokenFile: z.string().optional(),
});

export const configSchema = z.strictObject({
  baseUrl: baseUrl.default('https://voltageapi.com/v1'),
  organization: uuid.optional(),
  environments: z.array(environmentSchema).default([]),
  wallets: z.array(uuid).default([]),
  tz: z.string().default('UTC'),
  out: z.string().default('reports'),
  /** how the output root is shared (docs/reports.md#one-scope-per-output-root) */
  output: z
    .strictObject({
      /** one folder per organization under `out` (`org-<organization id>/`): several organizations share a root, each in its own folder */
      perOrganization: z.boolean().default(false),
    })
    .default({ perOrganization: false }),
  formats: z.array(z.enum(['csv', 'xlsx'])).min(1).default(['csv', 'xlsx']),
  /** Postgres URL without a password (a password belongs in DATABASE_URL or databaseUrlFile) */
  databaseUrl: z.string().optional(),
  databaseUrlFile: z.string().optional(),
  /** false = `--no-db`: no snapshot, checkpoints in a state file under the output folder */
  db: z.boolean().default(true),
  dbSchema: z.string().regex(/^[a-z_][a-z0-9_]{0,62}$/, 'expected a lowercase SQL identifier').default('payexport'),
  /** a statement waiting longer for a lock, or running longer, is cancelled: exit 75, resumable (docs/reliability.md PROC-12) */
  dbLockTimeoutMs: z.number().int().min(100).default(60_000),
  dbStatementTimeoutMs: z.number().int().min(0).default(15 * 60_000),
  /** where the embedded database lives when no URL is given */
  dataDir: z.string().default('data'),
  concurrency: z.number().int().min(1).max(64).default(8),
  // the largest page asked; the service's echoed `limit` or a refusal lowers it (api/page-size.ts).
  // The pull's memory is bounded in items, not pages (extract/chain-budget.ts `chainWidth`), so the
  // largest page is the default: the fewest round trips within the same peak (docs/benchmarks.md, "The API floor")
  pageSize: z.number().int().min(1).max(1000).default(1000),
  lookbackDays: z.number().int().min(0).max(366).default(7),
  /**
   * How an environment every wallet of which the run pulls has its payments read
   * (docs/extraction.md#environment-level-payments): `auto` whole when that takes fewer requests,
   * else per wallet; `environment` always whole; `wallet` always per wallet
   */
  paymentsRead: z.enum(['auto', 'environment', 'wallet']).default('auto'),
  requestTimeoutMs: z.number().int().min(100).default(30_000),
  retry: z
    .strictObject({
      maxAttempts: z.number().int().min(1).max(20).default(6),
      runBudget: z.number().int().min(0).default(1000),
      maxDelayMs: z.number().int().min(0).default(30_000),
    })
    .default({ maxAttempts: 6, runBudget: 1000, maxDelayMs: 30_000 }),
  csv: z
    .strictObject({
      /** UTF-8 BOM so Excel on Windows reads UTF-8 on double-click */
      bom: z.boolean().default(true),
      eol: z.enum(['lf', 'crlf']).default('crlf'),
    })
    .default({ bom: true, eol: 'crlf' }),
  logFormat: z.enum(['pretty', 'json']).optional(),
  logLevel: z.enum(['debug', 'info', 'warn', 'error']).default('info'),
  listen: listenSchema,
  /** `K/N`: this worker pulls the wallets whose stable hash falls in shard K of N */
  shard: z
    .string()
    .regex(/^\d+\/\d+$/, 'expected K/N such as 0/3')
    .refine((s) => {
      const [k, n] = s.split('/').map(Number) as [number, number];
      return n >= 1 && k >= 0 && k < n;
    }, 'expected 0 <= K < N')
    .optional(),
  notify: notifySchema.default({ timeoutMs: 10_000, attempts: 3, maxExceptions: 5, destinations: [] }),
  /** where published report folders are copied (delivery-schema.ts): SFTP, S3, a mounted share */
  delivery: deliverySchema.default({ timeoutMs: 300_000, attempts: 3, destinations: [] }),
  /** the chart-of-accounts mapping for journal entries (journal-schema.ts); absent = no journal files */
  journal: journalSchema.optional(),
  /** the crypto subledger: lots per wallet, cost basis, realized gains (lots-schema.ts); needs `journal` */
  lots: lotsSchema.optional(),
  /** the price cache and its sources (prices-schema.ts, docs/prices.md); absent = no cache */
  prices: pricesSchema.optional(),
});

export type Config = Readonly<z.infer<typeof configSchema>>;
export type EnvironmentConfig = Readonly<z.infer<typeof environmentSchema>>;
/** What a file, env or flags may contribute before defaults are applied. */
export type ConfigInput = z.input<typeof configSchema>;
