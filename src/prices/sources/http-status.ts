/**
 * The failure an HTTP status stands for, shared by the adapters (docs/prices.md#failures). The
 * retry predicate of src/api/retry.ts then decides from `failure` whether to try again.
 */
import { parseRetryAfterMs } from '../../util/retry.js';
import { PriceSourceError } from '../source-error.js';
import type { SourceResponse } from '../source.js';

export function statusError(source: string, response: SourceResponse, detail: string): PriceSourceError {
  const { status } = response;
  const failure = { kind: 'status' as const, status, type: `http_${status}` };
  const retryAfterMs = parseRetryAfterMs(response.retryAfter, Date.now());
  if (status === 429) return new PriceSourceError('rate_limited', source, `rate limited (HTTP 429${response.retryAfter === undefined ? '' : `, Retry-After ${response.retryAfter}`}): ${detail}`, failure, retryAfterMs);
  if (status === 404 || status === 410) return new PriceSourceError('source_gone', source, `HTTP ${status}: ${detail}`, failure);
  return new PriceSourceError('unavailable', source, `HTTP ${status}: ${detail}`, failure, retryAfterMs);
}

/** The body as JSON, or an `unavailable` failure naming what came instead (retried like a bad body). */
export function jsonBody(source: string, response: SourceResponse): unknown {
  try {
    return JSON.parse(response.body) as unknown;
  } catch {
    throw new PriceSourceError('unavailable', source, `HTTP ${response.status} with a body that is not JSON (${response.body.slice(0, 60).replace(/\s+/g, ' ')})`, { kind: 'transport', reason: 'bad_body' });
  }
}

/** A short, safe excerpt of an error body for the one-line message. */
export function excerpt(value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return (text ?? '').slice(0, 160);
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
