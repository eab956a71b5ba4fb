/**
 * Retry = a pure predicate + a pure delay + a thin loop (docs/style.md#4-retry; model stripe-node
 * RequestSender `_shouldRetry` / `_getSleepTimeInMS`). `sleep` and `random` are injected so tests are
 * instant and deterministic. Budgets: attempts per request AND retries per run (AWS Builders'
 * Library: retries amplify load during an outage, so the run as a whole gives up too).
 */
import { ApiConnectionError, ApiError, type TransportReason } from './errors.js';

export interface RetryPolicy {
  /** attempts per request, the first included */
  readonly maxAttempts: number;
  /** first backoff ceiling; doubles per attempt */
  readonly baseDelayMs: number;
  /** backoff ceiling */
  readonly maxDelayMs: number;
  /** a `Retry-After` longer than this is cut to it (NET-04: never sleep a day) */
  readonly maxRetryAfterMs: number;
  /** retries for the whole run, every request together */
  readonly runRetryBudget: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxAttempts: 5,
  baseDelayMs: 500,
  maxDelayMs: 20_000,
  maxRetryAfterMs: 60_000,
  runRetryBudget: 200,
};

/** What went wrong with one attempt, as far as retrying is concerned. */
export type Failure = { kind: 'status'; status: number; type: string } | { kind: 'transport'; reason: TransportReason };

/** 408 and 425 are the "try again" members of 4xx; 409 is NOT retried here (we only GET). */
const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([408, 425, 429, 500, 502, 503, 504]);

const RETRYABLE_TRANSPORT: ReadonlySet<TransportReason> = new Set<TransportReason>(['timeout', 'reset', 'bad_body', 'refused', 'dns']);

export interface RetryContext {
  /** A payment read right after the job learned of it: 404 means "still processing" (docs/service-facts.md#endpoints). */
  readonly notFoundIsProcessing?: boolean;
}

/** Pure: is this failure worth another attempt? TLS, auth and every other 4xx are final. */
export function isRetryable(failure: Failure, context: RetryContext = {}): boolean {
  if (failure.kind === 'transport') return RETRYABLE_TRANSPORT.has(failure.reason);
  if (failure.status === 404) return context.notFoundIsProcessing === true;
  return RETRYABLE_STATUSES.has(failure.status);
}

/**
 * Pure: how long to wait before attempt `attempt + 1`, after `attempt` (1-based) failed.
 * Capped exponential backoff with FULL jitter: uniform in [0, min(cap, base · 2^(attempt-1))).
 * A `Retry-After` is honoured as a floor (never retry sooner than asked), cut to `maxRetryAfterMs`.
 */
export function retryDelayMs(attempt: number, retryAfterMs: number | undefined, policy: RetryPolicy, random: () => number): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, attempt - 1));
  const backoff = Math.floor(clamp01(random()) * ceiling);
  if (retryAfterMs === undefined) return backoff;
  return Math.max(Math.min(retryAfterMs, policy.maxRetryAfterMs), backoff);
}

/**
 * Pure: `Retry-After` (RFC 9110 §10.2.3: delay-seconds or an HTTP-date) → ms from `nowMs`.
 * Garbage → undefined (the computed backoff applies); a date in the past → 0.
 */
export function parseRetryAfterMs(value: string | readonly string[] | undefined, nowMs: number): number | undefined {
  const text = (Array.isArray(value) ? value[0] : value)?.trim();
  if (!text) return undefined;
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  if (!/[a-z]/i.test(text)) return undefined;
  const at = Date.parse(text);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - nowMs);
}

/** Retries left for the whole run. Shared by every request of the run. */
export class RetryBudget {
  private used = 0;
  constructor(readonly limit: number) {}

  /** Takes one retry from the budget; false when it is spent. */
  tryTake(): boolean {
    if (this.used >= this.limit) return false;
    this.used++;
    return true;
  }

  get spent(): number {
    return this.used;
  }
}

/** The failure an error thrown by one attempt stands for; null = not a request failure (a bug): never retried. */
export function failureOf(error: unknown): Failure | null {
  if (error instanceof ApiError) return { kind: 'status', status: error.status, type: error.type };
  if (error instanceof ApiConnectionError) return { kind: 'transport', reason: error.reason };
  return null;
}

export interface RetryInfo {
  attempt: number;
  delayMs: number;
  failure: Failure;
}

export interface RetryLoopOptions {
  readonly policy: RetryPolicy;
  readonly budget: RetryBudget;
  readonly sleep: (ms: number) => Promise<void>;
  readonly random: () => number;
  readonly context?: RetryContext;
  readonly onRetry?: (info: RetryInfo) => void;
}

/**
 * The thin loop. `attempt(n)` makes attempt n (1-based); the caller takes its concurrency slot
 * inside `attempt`, so the backoff sleep here holds none. The final error gets `attempts` set.
 */
export async function withRetries<T>(attempt: (n: number) => Promise<T>, options: RetryLoopOptions): Promise<T> {
  for (let n = 1; ; n++) {
    try {
      return await attempt(n);
    } catch (error) {
      const failure = failureOf(error);
      const final =
        failure === null || !isRetryable(failure, options.context) || n >= options.policy.maxAttempts || !options.budget.tryTake();
      if (final) {
        if (error instanceof ApiError || error instanceof ApiConnectionError) error.attempts = n;
        throw error;
      }
      const retryAfterMs = error instanceof ApiError ? error.retryAfterMs : undefined;
      const delayMs = retryDelayMs(n, retryAfterMs, options.policy, options.random);
      options.onRetry?.({ attempt: n, delayMs, failure });
      await options.sleep(delayMs);
    }
  }
}

function clamp01(value: number): number {
  return Number.isFinite(value) ? Math.min(Math.max(value, 0), 1) : 0;
}
