/**
 * Attempts to deliver a report folder or a notification within one time budget, on the program's
 * one retry (retry.ts): a DeliveryError that says another attempt may help is retried, anything
 * else is final. The outcome is returned, not thrown: a failed notification must not fail the run
 * it reports on, and a delivery reports its attempts.
 */
import { DeliveryError } from './delivery-error.js';
import { withRetries, type Backoff } from './retry.js';

export interface DeliveryRetryPolicy {
  budgetMs: number;
  attempts: number;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
}

export interface AttemptsOutcome {
  ok: boolean;
  attempts: number;
  /** why the last attempt failed, when none succeeded */
  detail: string;
}

/** The deliveries' backoff: the time budget bounds the whole, the cap one wait. */
export const DELIVERY_BACKOFF: Backoff = { baseDelayMs: 250, maxDelayMs: 30_000, maxRetryAfterMs: 60_000 };

export async function attemptDelivery(policy: DeliveryRetryPolicy, attempt: (timeoutMs: number) => Promise<void>): Promise<AttemptsOutcome> {
  if (policy.budgetMs <= 0 || policy.attempts < 1) return { ok: false, attempts: 0, detail: 'not attempted' };
  let attempts = 0;
  try {
    await withRetries(
      async (n, timeoutMs) => {
        attempts = n;
        try {
          await attempt(timeoutMs);
        } catch (error) {
          throw error instanceof DeliveryError ? error : new DeliveryError(error instanceof Error ? error.message : String(error), false);
        }
      },
      {
        maxAttempts: policy.attempts,
        backoff: DELIVERY_BACKOFF,
        retryable: (error) => (error instanceof DeliveryError && error.retryable ? { retryAfterMs: error.retryAfterMs } : null),
        deadline: { budgetMs: policy.budgetMs, now: policy.now ?? Date.now },
        sleep: policy.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))),
        random: policy.random ?? Math.random,
      },
    );
    return { ok: true, attempts, detail: 'delivered' };
  } catch (error) {
    return { ok: false, attempts, detail: error instanceof Error ? error.message : String(error) };
  }
}
