/**
 * The API client's side of the program's one retry (util/retry.ts, docs/style.md#4-retry): the
 * predicate — which statuses and transport failures are worth another attempt, in one table — and
 * the policy. Budgets: attempts per request AND retries per run.
 */
import { withRetries, type Backoff, type RetryBudget } from '../util/retry.js';
import { ApiConnectionError, ApiError, type TransportReason } from './errors.js';

export interface RetryPolicy extends Backoff {
  /** attempts per request, the first included */
  readonly maxAttempts: number;
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

export interface RequestRetryOptions {
  readonly policy: RetryPolicy;
  readonly budget: RetryBudget;
  readonly sleep: (ms: number) => Promise<void>;
  readonly random: () => number;
  readonly context?: RetryContext;
  readonly onRetry?: (info: RetryInfo) => void;
}

/**
 * One request's attempts on the program's loop (util/retry.ts). `attempt(n)` makes attempt n
 * (1-based); the caller takes its concurrency slot inside `attempt`, so the backoff sleep holds
 * none. The final error gets `attempts` set.
 */
export async function retryRequest<T>(attempt: (n: number) => Promise<T>, options: RequestRetryOptions): Promise<T> {
  let attempts = 0;
  try {
    return await withRetries(
      (n) => {
        attempts = n;
        return attempt(n);
      },
      {
        maxAttempts: options.policy.maxAttempts,
        backoff: options.policy,
        budget: options.budget,
        sleep: options.sleep,
        random: options.random,
        retryable: (error) => {
          const failure = failureOf(error);
          if (failure === null || !isRetryable(failure, options.context)) return null;
          return { retryAfterMs: error instanceof ApiError ? error.retryAfterMs : undefined };
        },
        onRetry: ({ attempt: n, delayMs, error }) => options.onRetry?.({ attempt: n, delayMs, failure: failureOf(error) as Failure }),
      },
    );
  } catch (error) {
    if (error instanceof ApiError || error instanceof ApiConnectionError) error.attempts = attempts;
    throw error;
  }
}
