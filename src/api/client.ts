/**
 * The HTTP client: undici `request()` over a keep-alive Agent (8k req/s locally against 2–3k for
 * fetch, docs/measurements.md#http-clients), GET only — the job never writes to the service.
 *
 * - Deadline: one timer per attempt covers connect, headers AND body (undici's bodyTimeout is an
 *   idle timer, so a server dripping a byte every few seconds would never trip it — NET-10).
 * - Redirects are never followed (undici `request` does not follow them); a 3xx is an error, so
 *   the key cannot travel to another host (NET-15).
 * - Every attempt takes a slot of the run's ONE limiter; the backoff sleep between attempts holds
 *   none (docs/style.md#2-concurrency). Do not call the client from inside a task of the same limiter.
 * - Secrets: the auth value is registered with the run's scrubber; errors leave this module as
 *   AppErrors whose message, details and `cause` chain are scrubbed copies.
 */
import { createHash } from 'node:crypto';
import { Agent, request, type Dispatcher } from 'undici';
import type { LimitFunction } from 'p-limit';
import { configError } from '../util/errors.js';
import type { Logger } from '../util/log.js';
import type { SecretScrubber } from '../util/secret-scrubber.js';
import { abortableSleep } from '../util/abortable-sleep.js';
import { ApiConnectionError, ApiError, apiErrorFromResponse, classifyTransportError, type RequestLabel, type TransportReason } from './errors.js';
import { JsonSyntaxError, type LosslessJson } from './json.js';
import { parseJsonBody } from './json-body.js';
import { parseRetryAfterMs, RetryBudget } from '../util/retry.js';
import { DEFAULT_RETRY_POLICY, retryRequest, type RetryContext, type RetryPolicy } from './retry.js';

export type ApiAuth = { kind: 'apiKey'; apiKey: string } | { kind: 'bearer'; token: string };

/** Query parameters in order; a key may repeat (`statuses[]`). */
export type QueryPairs = ReadonlyArray<readonly [string, string]>;

export interface ApiClientOptions {
  /** API base including `/v1`, e.g. https://voltageapi.com/v1 */
  baseUrl: string;
  auth: ApiAuth;
  /** the run's one p-limit (`--concurrency`, default 8) */
  limiter: LimitFunction;
  log: Logger;
  scrubber: SecretScrubber;
  /** total deadline of one attempt, connect to last body byte */
  timeoutMs?: number;
  /** larger bodies are refused (a guard on memory, not a protocol limit) */
  maxResponseBytes?: number;
  retry?: Partial<RetryPolicy>;
  /** share one budget between the clients of one run (one client per environment key) */
  retryBudget?: RetryBudget;
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
  now?: () => number;
  /** default: a keep-alive Agent owned (and closed) by the client */
  dispatcher?: Dispatcher;
  /** counters shared by the run's clients (createApiStats()); default: this client's own */
  stats?: ApiStats;
  /** the run's cancellation (SIGINT/SIGTERM): aborts in-flight requests, never retried */
  signal?: AbortSignal;
  userAgent?: string;
  /** told of every attempt, with the sha256 of the body as received: the pull's evidence (src/audit/evidence-log.ts) */
  onExchange?: (exchange: ApiExchange) => void;
}

/** One attempt as the evidence records it: what was asked, what came back (never a header or a key). */
export interface ApiExchange {
  path: string;
  query: QueryPairs;
  attempt: number;
  /** the HTTP status, or null when no response came (a transport failure) */
  status: number | null;
  /** the status as a word, or the transport failure's reason (`timeout`, `reset`, `bad_body`, …) */
  outcome: string;
  bytes: number;
  /** of the body exactly as received (null when none came) */
  sha256: string | null;
  /** the parsed body of a 2xx that parsed (its page fields are read from it) */
  body: LosslessJson | null;
}

export interface GetOptions {
  query?: QueryPairs;
  /** retry context, e.g. `{ notFoundIsProcessing: true }` for a payment the job just learned of */
  retry?: RetryContext;
}

/** Counters for the run manifest. */
export interface ApiStats {
  /** attempts sent */
  requests: number;
  /** attempts that were retries */
  retries: number;
  /** response body bytes received */
  bytes: number;
  /** responses by status code; transport failures by reason */
  byOutcome: Record<string, number>;
}

/** Fresh counters, to share between the clients of one run. */
export function createApiStats(): ApiStats {
  return { requests: 0, retries: 0, bytes: 0, byOutcome: {} };
}

export const DEFAULT_TIMEOUT_MS = 30_000;
export const DEFAULT_MAX_RESPONSE_BYTES = 64 * 1024 * 1024;
const MAX_ERROR_BODY_BYTES = 64 * 1024;
/** How long a slot stays taken after we aborted its request (see attempt()). */
const ABORT_SETTLE_MS = 25;

class DeadlineExceeded extends Error {
  override readonly name = 'DeadlineExceeded';
  readonly code = 'PAYEXPORT_DEADLINE';
}

class ResponseTooLarge extends Error {
  override readonly name = 'ResponseTooLarge';
}

export class ApiClient {
  readonly host: string;
  private readonly origin: string;
  private readonly basePath: string;
  private readonly headers: Record<string, string>;
  private readonly policy: RetryPolicy;
  private readonly budget: RetryBudget;
  private readonly timeoutMs: number;
  private readonly maxResponseBytes: number;
  private readonly dispatcher: Dispatcher;
  private readonly ownsDispatcher: boolean;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly random: () => number;
  private readonly now: () => number;
  private readonly counters: ApiStats;

  constructor(private readonly options: ApiClientOptions) {
    const base = parseBaseUrl(options.baseUrl);
    this.origin = base.origin;
    this.host = base.host;
    this.basePath = base.pathname.replace(/\/+$/, '');
    this.headers = {
      accept: 'application/json',
      'user-agent': options.userAgent ?? 'payexport',
      ...authHeader(options.auth, options.scrubber),
    };
    this.policy = { ...DEFAULT_RETRY_POLICY, ...options.retry };
    this.budget = options.retryBudget ?? new RetryBudget(this.policy.runRetryBudget);
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.maxResponseBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
    this.ownsDispatcher = options.dispatcher === undefined;
    this.dispatcher =
      options.dispatcher ??
      new Agent({
        keepAliveTimeout: 10_000,
        // never more sockets than requests in flight: without a cap, a request dispatched in the tick
        // before a finished response frees its socket opens a new one (6 sockets for 3 slots, measured)
        connections: Number.isFinite(options.limiter.concurrency) ? options.limiter.concurrency : null,
        connect: { timeout: Math.min(10_000, this.timeoutMs) },
        headersTimeout: this.timeoutMs,
        bodyTimeout: this.timeoutMs,
      });
    // A backoff (up to a minute after a Retry-After) must not hold an interrupted run.
    this.sleep = options.sleep ?? ((ms) => abortableSleep(ms, options.signal));
    this.random = options.random ?? Math.random;
    this.now = options.now ?? Date.now;
    this.counters = options.stats ?? createApiStats();
  }

  /** GET `path` (below the base URL) and parse the body losslessly, retrying per the policy. */
  async get(path: string, options: GetOptions = {}): Promise<LosslessJson> {
    assertSafePath(path);
    const label: RequestLabel = { method: 'GET', path };
    // The body is parsed after the slot is given back: the request is over, and the next one can start.
    const query = options.query ?? [];
    const once = async (attempt: number): Promise<LosslessJson> => {
      const { bytes, status } = await this.options.limiter(() => this.attempt(label, query, attempt));
      if (this.options.onExchange === undefined) return this.parse(bytes, label, attempt);
      let body: LosslessJson | null = null;
      try {
        body = this.parse(bytes, label, attempt);
        return body;
      } finally {
        this.exchange({ path, query, attempt, status, outcome: body === null ? 'bad_body' : String(status), bytes: bytes.length, sha256: bodyHash(bytes), body });
      }
    };
    return retryRequest(once, {
      policy: this.policy,
      budget: this.budget,
      sleep: this.sleep,
      random: this.random,
      context: options.retry ?? {},
      onRetry: ({ attempt, delayMs, failure }) => {
        this.counters.retries++;
        this.options.log.warn(
          { method: label.method, path, attempt, delay_ms: delayMs, failure: failure.kind === 'status' ? `${failure.status} ${failure.type}` : failure.reason },
          'api retry',
        );
      },
    });
  }

  /** A snapshot of the counters. */
  stats(): ApiStats {
    return { ...this.counters, byOutcome: { ...this.counters.byOutcome } };
  }

  /** Retries left in the run's budget. */
  get retryBudgetLeft(): number {
    return this.budget.limit - this.budget.spent;
  }

  async close(): Promise<void> {
    if (this.ownsDispatcher) await this.dispatcher.close();
  }

  /** One attempt, inside a slot of the limiter: the 2xx body's bytes and status, or a thrown ApiError / ApiConnectionError. */
  private async attempt(label: RequestLabel, query: QueryPairs, attempt: number): Promise<{ bytes: Buffer; status: number }> {
    this.options.signal?.throwIfAborted();
    const started = this.now();
    const search = query.length === 0 ? '' : `?${new URLSearchParams(query.map(([k, v]): [string, string] => [k, v])).toString()}`;
    const url = `${this.origin}${this.basePath}${label.path}${search}`;
    const controller = new AbortController();
    const deadline = new DeadlineExceeded(`no complete response within ${this.timeoutMs} ms`);
    const timer = setTimeout(() => controller.abort(deadline), this.timeoutMs);
    const external = this.options.signal;
    const onExternalAbort = (): void => controller.abort(external?.reason);
    external?.addEventListener('abort', onExternalAbort, { once: true });
    this.counters.requests++;
    try {
      const response = await request(url, { method: 'GET', headers: this.headers, dispatcher: this.dispatcher, signal: controller.signal });
      const status = response.statusCode;
      if (status >= 200 && status < 300) {
        const bytes = await this.readBody(response.body, this.maxResponseBytes);
        this.record(String(status), bytes.length);
        this.options.log.debug({ method: label.method, path: label.path, status, attempt, bytes: bytes.length, ms: this.now() - started }, 'api response');
        return { bytes, status };
      }
      const bytes = await this.readBody(response.body, MAX_ERROR_BODY_BYTES).catch(() => Buffer.alloc(0));
      this.record(String(status), bytes.length);
      this.exchange({ path: label.path, query, attempt, status, outcome: String(status), bytes: bytes.length, sha256: bodyHash(bytes), body: null });
      this.options.log.debug({ method: label.method, path: label.path, status, attempt, ms: this.now() - started }, 'api response');
      throw apiErrorFromResponse(
        {
          ...label,
          status,
          bodyText: bytes.toString('utf8'),
          retryAfterMs: parseRetryAfterMs(response.headers['retry-after'], this.now()),
          attempts: attempt,
        },
        this.options.scrubber,
      );
    } catch (error) {
      if (error instanceof ApiError || error instanceof ApiConnectionError) throw error;
      if (external?.aborted) throw this.options.scrubber.scrubError(external.reason);
      const reason: TransportReason =
        controller.signal.aborted && controller.signal.reason === deadline ? 'timeout' : error instanceof ResponseTooLarge ? 'too_large' : classifyTransportError(error);
      this.record(reason, 0);
      this.exchange({ path: label.path, query, attempt, status: null, outcome: reason, bytes: 0, sha256: null, body: null });
      this.options.log.debug({ method: label.method, path: label.path, reason, attempt, ms: this.now() - started }, 'api transport failure');
      // We closed the connection ourselves: the server counts the request in flight until it reads
      // the close, so giving the slot away at once lets the next request arrive first and the server
      // sees N+1 (measured against the simulator's drip fault). A short grace keeps the count honest;
      // it is paid only after a timeout, which has already cost the whole deadline.
      if (reason === 'timeout') await new Promise((resolve) => setTimeout(resolve, ABORT_SETTLE_MS));
      throw new ApiConnectionError(reason, { ...label, host: this.host, attempts: attempt }, this.options.scrubber.scrubError(error));
    } finally {
      clearTimeout(timer);
      external?.removeEventListener('abort', onExternalAbort);
    }
  }

  private async readBody(body: AsyncIterable<Buffer> & { destroy(error?: Error): unknown }, limit: number): Promise<Buffer> {
    const chunks: Buffer[] = [];
    let length = 0;
    for await (const chunk of body) {
      length += chunk.length;
      if (length > limit) {
        const error = new ResponseTooLarge(`response body exceeds ${limit} bytes`);
        body.destroy(error);
        throw error;
      }
      chunks.push(chunk);
    }
    return Buffer.concat(chunks, length);
  }

  private parse(bytes: Buffer, label: RequestLabel, attempt: number): LosslessJson {
    try {
      if (bytes.length === 0) throw new JsonSyntaxError('Empty body', 0);
      return parseJsonBody(bytes);
    } catch (error) {
      // A 2xx that is not JSON was cut short or garbled in transit (NET-08): transient, retried.
      this.record('bad_body', 0);
      throw new ApiConnectionError('bad_body', { ...label, host: this.host, attempts: attempt }, this.options.scrubber.scrubError(error));
    }
  }

  private exchange(exchange: ApiExchange): void {
    this.options.onExchange?.(exchange);
  }

  private record(outcome: string, bytes: number): void {
    this.counters.bytes += bytes;
    this.counters.byOutcome[outcome] = (this.counters.byOutcome[outcome] ?? 0) + 1;
  }
}

function bodyHash(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}

function parseBaseUrl(baseUrl: string): URL {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw configError('bad_base_url', 'the API base URL is not a valid URL');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw configError('bad_base_url', `the API base URL must be http(s), not ${url.protocol}`);
  if (url.username !== '' || url.password !== '') throw configError('bad_base_url', 'the API base URL must not carry credentials');
  if (url.search !== '' || url.hash !== '') throw configError('bad_base_url', 'the API base URL must not carry a query or fragment');
  return url;
}

function authHeader(auth: ApiAuth, scrubber: SecretScrubber): Record<string, string> {
  const secret = auth.kind === 'apiKey' ? auth.apiKey : auth.token;
  const value = secret.trim();
  scrubber.add(secret).add(value);
  if (value === '') throw configError('missing_credentials', auth.kind === 'apiKey' ? 'the API key is empty' : 'the bearer token is empty');
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]|\s/.test(value)) throw configError('bad_credentials', 'the API credential contains whitespace or control characters');
  if (auth.kind === 'apiKey') return { 'x-api-key': value };
  scrubber.add(`Bearer ${value}`);
  return { authorization: `Bearer ${value}` };
}

/** Paths are built from validated parts by endpoints.ts; this refuses anything that could escape them. */
function assertSafePath(path: string): void {
  // eslint-disable-next-line no-control-regex
  if (!path.startsWith('/') || /[?#\s\u0000-\u001f\\]|\/\.\.?(\/|$)|%2e|%2f/i.test(path)) {
    throw new TypeError(`unsafe API path ${JSON.stringify(path.slice(0, 80))}`);
  }
}
