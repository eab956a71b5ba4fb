/**
 * Typed errors of the HTTP layer. Model: stripe-node src/Error.ts — one factory turns a response
 * into the right class; the envelope `{error: {type, detail, context?, code?}}` (docs/service-facts.md#errors)
 * gives the machine-readable `type`. Errors carry method and path, NEVER headers, keys or the
 * query string (a cursor or metadata filter is not a secret, but a path is enough to debug).
 *
 * Exit codes (docs/contracts.md#exit-codes), decided per error, not per attempt: retryable failures only
 * surface once the retry budget is spent, so "persistent" is implied.
 *
 * | failure                                          | exit              |
 * |--------------------------------------------------|-------------------|
 * | 400 missing_credentials, 401, 403                | noPerm (77)       |
 * | 429 after the budget                             | tempFail (75)     |
 * | 5xx after the budget                             | unavailable (69)  |
 * | any other 4xx (incl. 400 invalid_cursor, 404)    | unavailable (69)  |
 * | 3xx (never followed)                             | unavailable (69)  |
 * | timeout / reset / truncated body after budget    | unavailable (69)  |
 * | TLS / certificate (never retried)                | unavailable (69)  |
 * | connection refused / DNS after the budget        | tempFail (75)     |
 */
import { AppError } from '../util/errors.js';
import type { ExitCodeName } from '../util/exit-codes.js';
import type { SecretScrubber } from '../util/secret-scrubber.js';

/** Cap on the body text kept for a non-2xx response (HTML error pages can be large). */
const MAX_ERROR_BODY_CHARS = 2_000;

export interface RequestLabel {
  method: string;
  /** path below the base URL, without the query string */
  path: string;
}

export interface ApiErrorFields extends RequestLabel {
  status: number;
  /** envelope `error.type`, or `http_<status>` when the body is not the envelope */
  type: string;
  detail: string;
  context: Readonly<Record<string, unknown>> | undefined;
  code: string | undefined;
  /** seconds or HTTP date from `Retry-After`, already converted to ms (429/503) */
  retryAfterMs: number | undefined;
  /** attempts made for this request, including the one that produced this response */
  attempts: number;
}

/** A non-2xx response. */
export class ApiError extends AppError {
  override readonly name: string = 'ApiError';
  readonly status: number;
  readonly detail: string;
  readonly context: Readonly<Record<string, unknown>> | undefined;
  readonly code: string | undefined;
  readonly method: string;
  readonly path: string;
  readonly retryAfterMs: number | undefined;
  attempts: number;

  constructor(fields: ApiErrorFields, exit: ExitCodeName) {
    super(exit, fields.type, `${fields.method} ${fields.path} → ${fields.status} ${fields.type}: ${fields.detail}`, {
      details: { status: fields.status, method: fields.method, path: fields.path, code: fields.code, context: fields.context },
    });
    this.status = fields.status;
    this.detail = fields.detail;
    this.context = fields.context;
    this.code = fields.code;
    this.method = fields.method;
    this.path = fields.path;
    this.retryAfterMs = fields.retryAfterMs;
    this.attempts = fields.attempts;
  }
}

/** 400 missing_credentials, 401, 403: the key or token was refused (exit 77). Never retried. */
export class ApiAuthError extends ApiError {
  override readonly name: string = 'ApiAuthError';
}

/** 429 (exit 75 once the budget is spent). */
export class ApiRateLimitError extends ApiError {
  override readonly name: string = 'ApiRateLimitError';
}

/** 5xx (exit 69 once the budget is spent). */
export class ApiServerError extends ApiError {
  override readonly name: string = 'ApiServerError';
}

/** Any other 4xx, and 3xx (exit 69). `invalid_cursor` lands here: the extract layer may restart the stream. */
export class ApiRequestError extends ApiError {
  override readonly name: string = 'ApiRequestError';
}

/** Why a request produced no usable response. */
export type TransportReason =
  | 'timeout' // our total deadline, or a connect/headers timeout
  | 'reset' // ECONNRESET, socket closed mid-response, content-length mismatch
  | 'bad_body' // a 2xx whose body is truncated or not JSON
  | 'too_large' // the body exceeded the response size cap
  | 'refused' // ECONNREFUSED, EHOSTUNREACH, ENETUNREACH
  | 'dns' // ENOTFOUND, EAI_AGAIN
  | 'tls' // certificate or handshake failure
  | 'other';

const TRANSPORT_EXIT: Record<TransportReason, ExitCodeName> = {
  timeout: 'unavailable',
  reset: 'unavailable',
  bad_body: 'unavailable',
  too_large: 'unavailable',
  refused: 'tempFail',
  dns: 'tempFail',
  tls: 'unavailable',
  other: 'unavailable',
};

const TRANSPORT_MESSAGE: Record<TransportReason, string> = {
  timeout: 'no complete response before the request deadline',
  reset: 'the connection was reset before the response was complete',
  bad_body: 'the response body was truncated or is not valid JSON',
  too_large: 'the response body exceeds the size limit',
  refused: 'cannot reach the service (connection refused)',
  dns: 'cannot reach the service (DNS lookup failed)',
  tls: 'TLS handshake or certificate check failed',
  other: 'the request failed',
};

/** No usable response (stripe-node StripeConnectionError). `cause` is a scrubbed copy. */
export class ApiConnectionError extends AppError {
  override readonly name: string = 'ApiConnectionError';
  readonly reason: TransportReason;
  readonly method: string;
  readonly path: string;
  attempts: number;

  constructor(reason: TransportReason, label: RequestLabel & { host: string; attempts: number }, cause: Error | undefined) {
    const code = (cause as { code?: unknown } | undefined)?.code;
    const codeSuffix = typeof code === 'string' && /^[A-Z0-9_]{2,40}$/.test(code) ? ` (${code})` : '';
    super(TRANSPORT_EXIT[reason], `api_${reason}`, `${label.method} ${label.path} on ${label.host}: ${TRANSPORT_MESSAGE[reason]}${codeSuffix}`, {
      cause,
      details: { reason, method: label.method, path: label.path, host: label.host },
    });
    this.reason = reason;
    this.method = label.method;
    this.path = label.path;
    this.attempts = label.attempts;
  }
}

export interface ResponseFacts extends RequestLabel {
  status: number;
  /** the body as text (may be empty, HTML or truncated) */
  bodyText: string;
  retryAfterMs: number | undefined;
  attempts: number;
}

/**
 * THE factory: a non-2xx response → the ApiError subclass for its status. Tolerates any body:
 * the envelope, a bare `{type, detail}`, HTML, nothing. Every string is scrubbed.
 */
export function apiErrorFromResponse(facts: ResponseFacts, scrubber: SecretScrubber): ApiError {
  if (facts.status >= 300 && facts.status < 400) {
    // Never followed: a redirect to another host would carry the key there (NET-15).
    const fields = { ...facts, path: scrubber.scrub(facts.path), type: 'redirect_not_followed', context: undefined, code: undefined };
    return new ApiRequestError({ ...fields, detail: `HTTP ${facts.status} redirect; redirects are never followed` }, 'unavailable');
  }
  const envelope = readEnvelope(facts.bodyText);
  const type = sanitizeToken(envelope.type) ?? `http_${facts.status}`;
  const detail = scrubber.scrub(envelope.detail ?? fallbackDetail(facts.status, facts.bodyText));
  const context = envelope.context === undefined ? undefined : scrubContext(envelope.context, scrubber);
  const fields: ApiErrorFields = {
    status: facts.status,
    type,
    detail,
    context,
    code: sanitizeToken(envelope.code),
    method: facts.method,
    path: scrubber.scrub(facts.path),
    retryAfterMs: facts.retryAfterMs,
    attempts: facts.attempts,
  };
  const status = facts.status;
  if (status === 401 || status === 403 || (status === 400 && type === 'missing_credentials')) return new ApiAuthError(fields, 'noPerm');
  if (status === 429) return new ApiRateLimitError(fields, 'tempFail');
  if (status >= 500) return new ApiServerError(fields, 'unavailable');
  return new ApiRequestError(fields, 'unavailable');
}

interface Envelope {
  type?: unknown;
  detail?: string;
  code?: unknown;
  context?: Record<string, unknown>;
}

function readEnvelope(bodyText: string): Envelope {
  const trimmed = bodyText.trim();
  if (!trimmed.startsWith('{')) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(trimmed);
  } catch {
    return {};
  }
  if (!isRecord(parsed)) return {};
  // The spec's envelope nests under `error`; some gateways answer with the bare object.
  const inner = isRecord(parsed.error) ? parsed.error : parsed;
  return {
    type: inner.type,
    detail: typeof inner.detail === 'string' ? oneLine(inner.detail).slice(0, MAX_ERROR_BODY_CHARS) : undefined,
    code: inner.code,
    context: isRecord(inner.context) ? inner.context : undefined,
  };
}

function fallbackDetail(status: number, bodyText: string): string {
  const text = oneLine(bodyText.replace(/<[^>]*>/g, ' ')).slice(0, 200);
  return text === '' ? `HTTP ${status} with no error envelope` : `HTTP ${status}: ${text}`;
}

/** The server's text on one line, without control characters (no terminal escapes reach stderr). */
function oneLine(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u001f\u007f-\u009f]+/g, ' ').replace(/\s+/g, ' ').trim();
}

/** Machine-readable tokens only: anything else in `type`/`code` is not trusted as an identifier. */
function sanitizeToken(value: unknown): string | undefined {
  if (typeof value !== 'string' && typeof value !== 'number') return undefined;
  const text = String(value);
  return /^[A-Za-z0-9_.:-]{1,100}$/.test(text) ? text : undefined;
}

function scrubContext(context: Record<string, unknown>, scrubber: SecretScrubber): Record<string, unknown> {
  try {
    const text = scrubber.scrub(JSON.stringify(context)).slice(0, MAX_ERROR_BODY_CHARS);
    const parsed: unknown = JSON.parse(text);
    return isRecord(parsed) ? parsed : { value: text };
  } catch {
    return { truncated: true };
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The service broke the pagination or response contract (repeated cursor, page cap, endless empty
 * pages, a page without `items`): the pull cannot be proven complete, so it stops loudly (exit 69).
 */
export class ApiProtocolError extends AppError {
  override readonly name: string = 'ApiProtocolError';
  constructor(type: string, message: string, details?: Record<string, unknown>) {
    super('unavailable', type, message, details ? { details } : undefined);
  }
}

const TLS_CODES = new Set([
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'CERT_UNTRUSTED',
  'CERT_REVOKED',
  'CERT_SIGNATURE_FAILURE',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'ERR_TLS_HANDSHAKE_TIMEOUT',
  'EPROTO',
]);

const TRANSPORT_CODES: Record<string, TransportReason> = {
  ECONNRESET: 'reset',
  EPIPE: 'reset',
  ECONNABORTED: 'reset',
  UND_ERR_SOCKET: 'reset',
  UND_ERR_CLOSED: 'reset',
  UND_ERR_RES_CONTENT_LENGTH_MISMATCH: 'reset',
  UND_ERR_REQ_CONTENT_LENGTH_MISMATCH: 'reset',
  ECONNREFUSED: 'refused',
  EHOSTUNREACH: 'refused',
  ENETUNREACH: 'refused',
  EHOSTDOWN: 'refused',
  ENOTFOUND: 'dns',
  EAI_AGAIN: 'dns',
  EAI_FAIL: 'dns',
  ETIMEDOUT: 'timeout',
  UND_ERR_CONNECT_TIMEOUT: 'timeout',
  UND_ERR_HEADERS_TIMEOUT: 'timeout',
  UND_ERR_BODY_TIMEOUT: 'timeout',
};

/** Pure: an error thrown by undici (or its `cause` chain) → why the request failed. */
export function classifyTransportError(error: unknown): TransportReason {
  let current: unknown = error;
  for (let depth = 0; depth < 8 && current instanceof Error; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') {
      if (TLS_CODES.has(code) || code.startsWith('ERR_SSL_') || code.startsWith('ERR_TLS_')) return 'tls';
      const reason = TRANSPORT_CODES[code];
      if (reason) return reason;
    }
    if (current instanceof AggregateError) {
      // happy-eyeballs: every address failed; the first inner error names the cause
      const inner = current.errors[0];
      if (inner !== undefined) return classifyTransportError(inner);
    }
    current = current.cause;
  }
  return 'other';
}
