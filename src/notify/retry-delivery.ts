/**
 * Attempts within one time budget (style.md rule 4: a pure predicate, a pure delay, a thin loop;
 * `sleep` and `random` injected). An attempt gets half of what is left (the last one all of it), so
 * a slow but working server still answers the first time while one hanging attempt cannot eat the
 * retries; the whole never exceeds `budgetMs` by more than one attempt's own cleanup.
 */
import { DeliveryError } from './delivery-error.js';

export interface RetryPolicy {
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

const BASE_DELAY_MS = 250;

/** Capped exponential backoff with full jitter, or the server's Retry-After. */
export function retryDelayMs(attempt: number, error: DeliveryError, random: () => number): number {
  if (error.retryAfterMs !== null) return error.retryAfterMs;
  return Math.round(BASE_DELAY_MS * 2 ** (attempt - 1) * (0.5 + random() / 2));
}

export async function withRetries(policy: RetryPolicy, attempt: (timeoutMs: number) => Promise<void>): Promise<AttemptsOutcome> {
  const now = policy.now ?? Date.now;
  const sleep = policy.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const random = policy.random ?? Math.random;
  const end = now() + policy.budgetMs;
  let detail = 'not attempted';
  for (let n = 1; n <= policy.attempts; n++) {
    const left = end - now();
    if (left <= 0) return { ok: false, attempts: n - 1, detail };
    const timeoutMs = Math.max(1, n === policy.attempts ? left : Math.floor(left / 2));
    try {
      await attempt(timeoutMs);
      return { ok: true, attempts: n, detail: 'delivered' };
    } catch (error) {
      const failure = error instanceof DeliveryError ? error : new DeliveryError(error instanceof Error ? error.message : String(error), false);
      detail = failure.message;
      if (!failure.retryable || n === policy.attempts) return { ok: false, attempts: n, detail };
      const wait = retryDelayMs(n, failure, random);
      if (now() + wait >= end) return { ok: false, attempts: n, detail };
      await sleep(wait);
    }
  }
  return { ok: false, attempts: policy.attempts, detail };
}
