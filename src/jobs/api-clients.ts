/**
 * The run's API clients: one per credential (keys are scoped to one environment), all sharing ONE
 * request limiter (`--concurrency`), one retry budget and one set of counters, so the whole run —
 * whatever the number of environments — never has more than N requests in flight.
 */
import pLimit from 'p-limit';
import { ApiClient, createApiStats, type ApiExchange, type ApiStats } from '../api/client.js';
import type { ApiReader } from '../api/endpoints.js';
import { assertEnvironmentMatchesBaseUrl } from '../api/environment-guard.js';
import { RetryBudget } from '../util/retry.js';
import type { LoadedConfig } from '../config/load.js';
import { AppError } from '../util/errors.js';
import type { Logger } from '../util/log.js';
import type { SecretScrubber } from '../util/secret-scrubber.js';

export interface ApiSet {
  /** readers for discovery: one per configured environment, or the organization-wide one */
  readers: ReadonlyArray<{ environmentId: string | undefined; api: ApiReader }>;
  apiFor(environmentId: string): ApiReader;
  stats(): ApiStats;
  close(): Promise<void>;
}

export interface ApiSetOptions {
  loaded: LoadedConfig;
  scrubber: SecretScrubber;
  log: Logger;
  signal?: AbortSignal;
  /** every attempt of every client, for the pull's evidence */
  onExchange?: (exchange: ApiExchange) => void;
}

/** Checks credentials and the staging/production guard — before any request is made. */
export function createApiSet(options: ApiSetOptions): ApiSet {
  const { config, secrets } = options.loaded;
  const limiter = pLimit(config.concurrency);
  const budget = new RetryBudget(config.retry.runBudget);
  const stats = createApiStats();
  const make = (baseUrl: string, credential: { scheme: 'api_key' | 'bearer'; value: string }): ApiClient =>
    new ApiClient({
      baseUrl,
      auth: credential.scheme === 'api_key' ? { kind: 'apiKey', apiKey: credential.value } : { kind: 'bearer', token: credential.value },
      limiter,
      log: options.log,
      scrubber: options.scrubber,
      timeoutMs: config.requestTimeoutMs,
      retry: { maxAttempts: config.retry.maxAttempts, maxDelayMs: config.retry.maxDelayMs, runRetryBudget: config.retry.runBudget },
      retryBudget: budget,
      stats,
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.onExchange ? { onExchange: options.onExchange } : {}),
    });

  const fallback = secrets.credentials.get('*');
  const clients = new Map<string, ApiClient>();
  const readers: Array<{ environmentId: string | undefined; api: ApiReader }> = [];
  for (const environment of config.environments) {
    const baseUrl = environment.baseUrl ?? config.baseUrl;
    assertEnvironmentMatchesBaseUrl(environment.kind, baseUrl);
    const credential = secrets.credentials.get(environment.id) ?? fallback;
    if (!credential) throw missingCredentials(`environment ${environment.id}`);
    const client = make(baseUrl, credential);
    clients.set(environment.id.toLowerCase(), client);
    readers.push({ environmentId: environment.id, api: client });
  }
  let defaultClient: ApiClient | undefined;
  if (fallback) {
    assertEnvironmentMatchesBaseUrl(undefined, config.baseUrl);
    defaultClient = make(config.baseUrl, fallback);
    if (config.environments.length === 0) readers.push({ environmentId: undefined, api: defaultClient });
  }
  if (readers.length === 0) throw missingCredentials('the organization');

  return {
    readers,
    apiFor(environmentId) {
      const client = clients.get(environmentId.toLowerCase()) ?? defaultClient;
      if (!client) throw missingCredentials(`environment ${environmentId}`);
      return client;
    },
    stats: () => ({ ...stats, byOutcome: { ...stats.byOutcome } }),
    async close() {
      await Promise.all([...clients.values(), ...(defaultClient ? [defaultClient] : [])].map((c) => c.close()));
    },
  };
}

function missingCredentials(what: string): AppError {
  return new AppError('noPerm', 'missing_credentials', `no API credentials for ${what}: set PAYEXPORT_API_KEY (or PAYEXPORT_BEARER_TOKEN), or name a key per environment in the config file`);
}
