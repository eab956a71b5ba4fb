/**
 * The program's one retry (src/util/retry.ts): capped exponential backoff with full jitter, checked
 * at chosen points and over a seeded random source (every wait inside its ceiling, the ceilings
 * doubling to the cap, the waits spread over the whole range); Retry-After as a capped floor; the
 * loop's attempts, run budget and time budget.
 */
import { describe, expect, it } from 'vitest';
import { parseRetryAfterMs, RetryBudget, retryDelayMs, withRetries, type Backoff } from '../../../src/util/retry.js';

/** mulberry32: a small seeded generator, so a failure here reproduces */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('retryDelayMs (capped exponential backoff, full jitter)', () => {
  const policy = { baseDelayMs: 100, maxDelayMs: 1_000, maxRetryAfterMs: 5_000 };
  it.each([
    // attempt, random, retryAfterMs, expected
    [1, 0.5, undefined, 50],
    [2, 0.5, undefined, 100],
    [3, 0.5, undefined, 200],
    [4, 0.999, undefined, 799],
    [10, 0.5, undefined, 500], // capped at maxDelayMs
    [1, 0, undefined, 0], // full jitter may retry at once
    [1, 1, undefined, 100],
    [1, 0.5, 2_000, 2_000], // Retry-After is a floor
    [5, 0.9, 100, 900], // ...but never shortens the backoff
    [1, 0.5, 86_400_000, 5_000], // capped: never sleep a day
    [1, Number.NaN, undefined, 0],
  ])('attempt %i, random %d, retry-after %s → %i ms', (attempt, random, retryAfter, expected) => {
    expect(retryDelayMs(attempt, retryAfter, policy, () => random)).toBe(expected);
  });
});

describe('parseRetryAfterMs', () => {
  const now = Date.parse('2026-11-22T10:00:00Z');
  it.each<[string | string[] | undefined, number | undefined]>([
    ['2', 2_000],
    ['0', 0],
    [' 7 ', 7_000],
    [['3', '9'], 3_000],
    ['Sun, 22 Nov 2026 10:00:05 GMT', 5_000],
    ['Sun, 22 Nov 2026 09:00:00 GMT', 0],
    ['-1', undefined],
    ['1.5', undefined],
    ['soon', undefined],
    ['', undefined],
    [undefined, undefined],
  ])('%j → %s', (value, expected) => {
    expect(parseRetryAfterMs(value, now)).toBe(expected);
  });
});

describe('retryDelayMs over a seeded random source', () => {
  const backoff: Backoff = { baseDelayMs: 250, maxDelayMs: 8_000, maxRetryAfterMs: 60_000 };

  it('keeps every wait in [0, min(cap, base · 2^(n-1))) and spreads it over that whole range (full jitter)', () => {
    const random = seeded(20261206);
    for (let attempt = 1; attempt <= 10; attempt++) {
      const ceiling = Math.min(backoff.maxDelayMs, backoff.baseDelayMs * 2 ** (attempt - 1));
      const waits = Array.from({ length: 2_000 }, () => retryDelayMs(attempt, undefined, backoff, random));
      expect(Math.min(...waits)).toBeGreaterThanOrEqual(0);
      expect(Math.max(...waits)).toBeLessThan(ceiling);
      // full jitter: the low and the high tenth of the range are both reached, the mean near half the ceiling
      expect(waits.some((w) => w < ceiling / 10)).toBe(true);
      expect(waits.some((w) => w >= (ceiling * 9) / 10)).toBe(true);
      const mean = waits.reduce((a, b) => a + b, 0) / waits.length;
      expect(Math.abs(mean - ceiling / 2)).toBeLessThan(ceiling * 0.05);
    }
  });

  it('gives the same waits for the same seed', () => {
    const a = seeded(7);
    const b = seeded(7);
    const waits = (random: () => number) => [1, 2, 3, 4, 5, 6].map((n) => retryDelayMs(n, undefined, backoff, random));
    expect(waits(a)).toEqual(waits(b));
  });

  it('never waits less than a Retry-After nor more than its cap', () => {
    const random = seeded(99);
    for (let i = 0; i < 500; i++) {
      const retryAfter = Math.floor(random() * 120_000);
      const wait = retryDelayMs(1 + (i % 8), retryAfter, backoff, random);
      expect(wait).toBeGreaterThanOrEqual(Math.min(retryAfter, backoff.maxRetryAfterMs));
      expect(wait).toBeLessThanOrEqual(Math.max(backoff.maxRetryAfterMs, backoff.maxDelayMs));
    }
  });
});

describe('withRetries', () => {
  const backoff: Backoff = { baseDelayMs: 100, maxDelayMs: 1_000, maxRetryAfterMs: 5_000 };
  const transient = { retryable: (e: unknown) => (e instanceof Error && e.message === 'again' ? {} : null) };

  it('retries what the predicate allows, up to the attempts, sleeping the computed waits', async () => {
    const random = seeded(3);
    const sleeps: number[] = [];
    const attempts: number[] = [];
    const result = await withRetries(
      async (n) => {
        attempts.push(n);
        if (n < 3) throw new Error('again');
        return 'ok';
      },
      { maxAttempts: 5, backoff, ...transient, sleep: async (ms) => void sleeps.push(ms), random },
    );
    expect(result).toBe('ok');
    expect(attempts).toEqual([1, 2, 3]);
    const replay = seeded(3);
    expect(sleeps).toEqual([retryDelayMs(1, undefined, backoff, replay), retryDelayMs(2, undefined, backoff, replay)]);
  });

  it('throws a final error at once, and the last one when the attempts or the run budget are spent', async () => {
    let calls = 0;
    const final = await withRetries(
      async () => {
        calls++;
        throw new Error('no');
      },
      { maxAttempts: 5, backoff, ...transient, sleep: async () => undefined, random: () => 0 },
    ).catch((e: unknown) => e);
    expect((final as Error).message).toBe('no');
    expect(calls).toBe(1);
    calls = 0;
    const budget = new RetryBudget(2);
    const spent = await withRetries(
      async () => {
        calls++;
        throw new Error('again');
      },
      { maxAttempts: 5, backoff, ...transient, budget, sleep: async () => undefined, random: () => 0 },
    ).catch((e: unknown) => e);
    expect((spent as Error).message).toBe('again');
    expect(calls).toBe(3);
    expect(budget.spent).toBe(2);
  });

  it('within a time budget: half of what is left per attempt, the last all of it, no retry whose wait ends past it', async () => {
    const clock = { t: 0 };
    const timeouts: number[] = [];
    const error = await withRetries(
      async (_n, timeoutMs) => {
        timeouts.push(timeoutMs);
        clock.t += timeoutMs;
        throw new Error('again');
      },
      { maxAttempts: 3, backoff, ...transient, deadline: { budgetMs: 8_000, now: () => clock.t }, sleep: async (ms) => void (clock.t += ms), random: () => 0 },
    ).catch((e: unknown) => e);
    expect((error as Error).message).toBe('again');
    expect(timeouts).toEqual([4_000, 2_000, 2_000]);
    expect(clock.t).toBe(8_000);
  });
});
