/**
 * One GET to a price source, and the retry around it: the API's predicate (src/api/retry.ts) on the
 * program's one loop (src/util/retry.ts, docs/style.md#4-retry), `sleep` and `random` injected. A transport
 * failure becomes a PriceSourceError: no answer at all (an unknown host, a refused or reset
 * connection, a timeout) is `unreachable` — temporary, exit 75 — and anything else `unavailable`.
 */
import { classifyTransportError } from '../api/errors.js';
import { isRetryable, type RetryPolicy } from '../api/retry.js';
import { withRetries, type RetryBudget } from '../util/retry.js';
import { PriceSourceError } from './source-error.js';
import type { SourceRequest, SourceResponse } from './source.js';

export type HttpGet = (request: SourceRequest) => Promise<SourceResponse>;

/** Transport failures that mean no answer came: the source may be fine, the way to it is not. */
const UNREACHABLE: ReadonlySet<string> = new Set(['refused', 'reset', 'timeout']);

export function fetchGet(timeoutMs: number, signal?: AbortSignal): HttpGet {
  return async (request) => {
    const host = new URL(request.url).host;
    try {
      const timeout = AbortSignal.timeout(timeoutMs);
      const response = await fetch(request.url, { headers: request.headers, signal: signal === undefined ? timeout : AbortSignal.any([timeout, signal]), redirect: 'error' });
      return { status: response.status, body: await response.text(), retryAfter: response.headers.get('retry-after') ?? undefined };
    } catch (error) {
      const reason = (error as Error).name === 'TimeoutError' ? 'timeout' : classifyTransportError(error);
      if (reason === 'dns') throw new PriceSourceError('unreachable', host, `cannot reach ${host}: its name does not resolve (no network, or a DNS failure)`, { kind: 'transport', reason });
      if (UNREACHABLE.has(reason)) throw new PriceSourceError('unreachable', host, `cannot reach ${host} (${reason === 'refused' ? 'connection refused' : reason === 'reset' ? 'connection reset' : 'no answer in time'})`, { kind: 'transport', reason });
      throw new PriceSourceError('unavailable', host, `cannot reach ${host} (${reason})`, { kind: 'transport', reason });
    }
  };
}

export interface RetryOptions {
  policy: RetryPolicy;
  budget: RetryBudget;
  sleep: (ms: number) => Promise<void>;
  random: () => number;
  onRetry?: (info: { source: string; attempt: number; delayMs: number; kind: string }) => void;
}

/** GET and parse, retrying what the predicate calls retryable, within the attempts and the run's budget. */
export async function getParsed<T>(get: HttpGet, request: SourceRequest, parse: (response: SourceResponse) => T, options: RetryOptions): Promise<T> {
  return withRetries(async () => parse(await get(request)), {
    maxAttempts: options.policy.maxAttempts,
    backoff: options.policy,
    budget: options.budget,
    sleep: options.sleep,
    random: options.random,
    retryable: (error) => (error instanceof PriceSourceError && error.failure !== null && isRetryable(error.failure) ? { retryAfterMs: error.retryAfterMs } : null),
    onRetry: ({ attempt, delayMs, error }) => {
      const e = error as PriceSourceError;
      options.onRetry?.({ source: e.source, attempt, delayMs, kind: e.kind });
    },
  });
}
