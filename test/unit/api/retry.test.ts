import { describe, expect, it } from 'vitest';
import { ApiConnectionError, ApiServerError, ApiRequestError, ApiRateLimitError, type TransportReason } from '../../../src/api/errors.js';
import { DEFAULT_RETRY_POLICY, isRetryable, retryRequest, type Failure } from '../../../src/api/retry.js';
import { RetryBudget } from '../../../src/util/retry.js';

const status = (code: number, type = `http_${code}`): Failure => ({ kind: 'status', status: code, type });
const transport = (reason: TransportReason): Failure => ({ kind: 'transport', reason });

describe('isRetryable', () => {
  it.each<[Failure, boolean]>([
    [status(429), true],
    [status(500), true],
    [status(502), true],
    [status(503, 'read_temporarily_unavailable'), true],
    [status(504), true],
    [status(408), true],
    [status(400), false],
    [status(400, 'missing_credentials'), false],
    [status(400, 'invalid_cursor'), false],
    [status(401), false],
    [status(403), false],
    [status(404), false],
    [status(409), false],
    [status(422), false],
    [status(302), false],
    [transport('timeout'), true],
    [transport('reset'), true],
    [transport('bad_body'), true],
    [transport('refused'), true],
    [transport('dns'), true],
    [transport('tls'), false],
    [transport('too_large'), false],
    [transport('other'), false],
  ])('%j → %s', (failure, expected) => {
    expect(isRetryable(failure)).toBe(expected);
  });

  it('retries a 404 only when the call says the payment is still processing', () => {
    expect(isRetryable(status(404, 'payment_not_found'), { notFoundIsProcessing: true })).toBe(true);
    expect(isRetryable(status(404, 'payment_not_found'), { notFoundIsProcessing: false })).toBe(false);
    expect(isRetryable(status(401), { notFoundIsProcessing: true })).toBe(false);
  });
});

function serverError(code: number, retryAfterMs?: number): ApiServerError {
  return new ApiServerError(
    { status: code, type: `http_${code}`, detail: 'x', context: undefined, code: undefined, method: 'GET', path: '/p', retryAfterMs, attempts: 1 },
    'unavailable',
  );
}

describe('retryRequest', () => {
  const policy = { ...DEFAULT_RETRY_POLICY, maxAttempts: 4, baseDelayMs: 100, maxDelayMs: 1_000 };

  it('retries retryable failures and returns the first success; sleeps are the computed delays', async () => {
    const sleeps: number[] = [];
    const attempts: number[] = [];
    const result = await retryRequest(
      async (n) => {
        attempts.push(n);
        if (n < 3) throw serverError(503);
        return 'ok';
      },
      { policy, budget: new RetryBudget(10), sleep: async (ms) => void sleeps.push(ms), random: () => 0.5 },
    );
    expect(result).toBe('ok');
    expect(attempts).toEqual([1, 2, 3]);
    expect(sleeps).toEqual([50, 100]);
  });

  it('gives up after maxAttempts (per-request budget) and reports the attempts on the error', async () => {
    let calls = 0;
    const error = await retryRequest(
      async () => {
        calls++;
        throw serverError(502);
      },
      { policy, budget: new RetryBudget(100), sleep: async () => undefined, random: () => 0 },
    ).catch((e: unknown) => e);
    expect(calls).toBe(4);
    expect(error).toBeInstanceOf(ApiServerError);
    expect((error as ApiServerError).attempts).toBe(4);
    expect((error as ApiServerError).exitCode).toBe(69);
  });

  it('shares the run budget between requests', async () => {
    const budget = new RetryBudget(3);
    let calls = 0;
    const failing = () =>
      retryRequest(
        async () => {
          calls++;
          throw new ApiConnectionError('reset', { method: 'GET', path: '/p', host: 'h', attempts: 1 }, undefined);
        },
        { policy, budget, sleep: async () => undefined, random: () => 0 },
      ).catch((e: unknown) => e);
    await failing(); // 1 + 3 retries: spends the whole run budget
    const second = await failing(); // no retry left: one attempt only
    expect(calls).toBe(5);
    expect(budget.spent).toBe(3);
    expect((second as ApiConnectionError).attempts).toBe(1);
  });

  it('never retries a non-retryable 4xx, nor an error that is not a request failure', async () => {
    for (const thrown of [
      new ApiRequestError({ status: 404, type: 'instance_not_found', detail: '', context: undefined, code: undefined, method: 'GET', path: '/p', retryAfterMs: undefined, attempts: 1 }, 'unavailable'),
      new TypeError('bug'),
    ]) {
      let calls = 0;
      const error = await retryRequest(
        async () => {
          calls++;
          throw thrown;
        },
        { policy, budget: new RetryBudget(10), sleep: async () => undefined, random: () => 0 },
      ).catch((e: unknown) => e);
      expect(calls).toBe(1);
      expect(error).toBe(thrown);
    }
  });

  it('waits at least Retry-After on a 429', async () => {
    const sleeps: number[] = [];
    let calls = 0;
    await retryRequest(
      async () => {
        if (++calls === 1) {
          throw new ApiRateLimitError({ status: 429, type: 'rate_limited', detail: '', context: undefined, code: undefined, method: 'GET', path: '/p', retryAfterMs: 3_000, attempts: 1 }, 'tempFail');
        }
        return 1;
      },
      { policy, budget: new RetryBudget(10), sleep: async (ms) => void sleeps.push(ms), random: () => 0.5 },
    );
    expect(sleeps).toEqual([3_000]);
  });
});
