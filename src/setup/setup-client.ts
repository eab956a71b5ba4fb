/**
 * The API client of a setup step (`init`'s checks, `doctor`'s key line, the opening-lots
 * template): the jobs' client and its errors, with a question's budget — a couple of attempts and
 * one short timeout, not a night's retry budget — and no run log (the caller shows the outcome).
 */
import pLimit from 'p-limit';
import { ApiClient } from '../api/client.js';
import type { Credential } from '../config/load.js';
import { silentLogger } from '../util/log.js';
import type { SecretScrubber } from '../util/secret-scrubber.js';

export interface SetupClientInput {
  baseUrl: string;
  credential: Credential;
  scrubber: SecretScrubber;
  timeoutMs?: number | undefined;
}

export function setupClient(input: SetupClientInput): ApiClient {
  input.scrubber.add(input.credential.value);
  return new ApiClient({
    baseUrl: input.baseUrl,
    auth: input.credential.scheme === 'api_key' ? { kind: 'apiKey', apiKey: input.credential.value } : { kind: 'bearer', token: input.credential.value },
    limiter: pLimit(1),
    retry: { maxAttempts: 2, maxDelayMs: 1_000 },
    timeoutMs: input.timeoutMs ?? 15_000,
    log: silentLogger(),
    scrubber: input.scrubber,
  });
}
