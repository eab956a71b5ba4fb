/** An ApiClient wired for tests: instant recorded sleeps, fixed jitter, a memory logger, a planted key. */
import pLimit, { type LimitFunction } from 'p-limit';
import { ApiClient, type ApiClientOptions } from '../../../src/api/client.js';
import { createMemoryLogger, type MemoryLogger } from '../../../src/util/log.js';
import { SecretScrubber } from '../../../src/util/secret-scrubber.js';

export const PLANTED_KEY = 'vltg_CANARY_3f9a1c0d5e7b44a2b6c8d0e1f2a3b4c5';

export interface Harness {
  client: ApiClient;
  memory: MemoryLogger;
  scrubber: SecretScrubber;
  limiter: LimitFunction;
  /** every backoff the client asked for, in ms */
  sleeps: number[];
}

export function makeClient(baseUrl: string, overrides: Partial<ApiClientOptions> = {}): Harness {
  const scrubber = new SecretScrubber();
  const memory = createMemoryLogger({ scrubber, level: 'trace' });
  const limiter = pLimit(8);
  const sleeps: number[] = [];
  const client = new ApiClient({
    baseUrl,
    auth: { kind: 'apiKey', apiKey: PLANTED_KEY },
    limiter,
    log: memory.log,
    scrubber,
    timeoutMs: 2_000,
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    random: () => 0.5,
    ...overrides,
  });
  return { client, memory, scrubber, limiter: overrides.limiter ?? limiter, sleeps };
}

/** Runs `fn` and returns what it threw (fails the test if it did not throw). */
export async function caught(fn: () => Promise<unknown>): Promise<unknown> {
  try {
    await fn();
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}
