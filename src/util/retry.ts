/**
 * The one retry of the program (docs/style.md#4-retry; model stripe-node's RequestSender
 * `_shouldRetry` / `_getSleepTimeInMS`): a pure delay, a run-wide budget and a thin loop, with
 * `sleep` and `random` injected so tests are instant and deterministic. What is worth another
 * attempt is the caller's predicate: the API client's (api/retry.ts), the price sources'
 * (prices/http-get.ts), the deliveries' and notifications' (util/delivery-attempts.ts).
 */

/** How long to wait between attempts. */
export interface Backoff {
  /** first backoff ceiling; doubles per attempt */
  readonly baseDelayMs: number;
  /** backoff ceiling */
  readonly maxDelayMs: number;
  /** a `Retry-After` longer than this is cut to it (never sleep a day) */
  readonly maxRetryAfterMs: number;
}

/**
 * Pure: how long to wait before attempt `attempt + 1`, after `attempt` (1-based) failed. Capped
 * exponential backoff with FULL jitter: uniform in [0, min(cap, base · 2^(attempt-1))) — full
 * jitter spreads the clients an outage made fail together (AWS Architecture Blog, "Exponential
 * Backoff And Jitter"). A `Retry-After` is honoured as a floor (never retry sooner than asked), cut
 * to `maxRetryAfterMs`.
 */
export function retryDelayMs(attempt: number, retryAfterMs: number | null | undefined, backoff: Backoff, random: () => number): number {
  const ceiling = Math.min(backoff.maxDelayMs, backoff.baseDelayMs * 2 ** Math.max(0, attempt - 1));
  const wait = Math.floor(clamp01(random()) * ceiling);
  if (retryAfterMs === undefined || retryAfterMs === null) return wait;
  return Math.max(Math.min(retryAfterMs, backoff.maxRetryAfterMs), wait);
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

/**
 * Retries left for the whole run, shared by every request of the run: retries amplify load during
 * an outage, so the run as a whole gives up too (AWS Builders' Library, "Timeouts, retries, and
 * backoff with jitter").
 */
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

/** A failure worth another attempt, and the wait it asked for (a `Retry-After`), if any. */
export interface RetryableFailure {
  readonly retryAfterMs?: number | null;
}

export interface RetryLoopOptions {
  /** attempts, the first included */
  readonly maxAttempts: number;
  readonly backoff: Backoff;
  /** the predicate: null when the error is final (never retried) */
  readonly retryable: (error: unknown) => RetryableFailure | null;
  /** retries left for the whole run, when the run has such a budget */
  readonly budget?: RetryBudget;
  /**
   * One time budget for every attempt together: an attempt gets half of what is left (the last one
   * all of it), so a slow but working server still answers the first time while one hanging attempt
   * cannot eat the retries; no retry starts whose wait would end past it.
   */
  readonly deadline?: { readonly budgetMs: number; readonly now: () => number };
  readonly sleep: (ms: number) => Promise<void>;
  readonly random: () => number;
  readonly onRetry?: (info: { attempt: number; delayMs: number; error: unknown }) => void;
}

/**
 * The thin loop: `attempt(n, timeoutMs)` makes attempt n (1-based) within `timeoutMs` (Infinity
 * without a deadline); the last error is thrown as it was. The caller takes any concurrency slot
 * inside `attempt`, so the backoff sleep here holds none.
 */
export async function withRetries<T>(attempt: (n: number, timeoutMs: number) => Promise<T>, options: RetryLoopOptions): Promise<T> {
  const end = options.deadline === undefined ? Infinity : options.deadline.now() + options.deadline.budgetMs;
  const now = options.deadline?.now ?? ((): number => 0);
  let last: unknown;
  for (let n = 1; ; n++) {
    const left = end - now();
    // a sleep that overran the deadline: no attempt starts past it
    if (n > 1 && left <= 0) throw last;
    const timeoutMs = end === Infinity ? Infinity : Math.max(1, n >= options.maxAttempts ? left : Math.floor(left / 2));
    try {
      return await attempt(n, timeoutMs);
    } catch (error) {
      last = error;
      const failure = options.retryable(error);
      if (failure === null || n >= options.maxAttempts) throw error;
      const delayMs = retryDelayMs(n, failure.retryAfterMs, options.backoff, options.random);
      if (now() + delayMs >= end || (options.budget !== undefined && !options.budget.tryTake())) throw error;
      options.onRetry?.({ attempt: n, delayMs, error });
      await options.sleep(delayMs);
    }
  }
}

function clamp01(value: number): number {
  return Number.isFinite(value) ? Math.min(Math.max(value, 0), 1) : 0;
}
