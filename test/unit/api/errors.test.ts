import { describe, expect, it } from 'vitest';
import {
  ApiAuthError,
  ApiRateLimitError,
  ApiRequestError,
  ApiServerError,
  apiErrorFromResponse,
  classifyTransportError,
  type TransportReason,
} from '../../../src/api/errors.js';
import { SecretScrubber } from '../../../src/util/secret-scrubber.js';

const KEY = 'vltg_CANARY_errors_0123456789abcdef';
const scrubber = new SecretScrubber([KEY]);
const facts = (status: number, bodyText: string) => ({ method: 'GET', path: '/organizations/x/wallets', status, bodyText, retryAfterMs: undefined, attempts: 1 });
const envelope = (type: string, extra: Record<string, unknown> = {}) => JSON.stringify({ error: { type, detail: `detail of ${type}`, ...extra } });

describe('apiErrorFromResponse (the one factory)', () => {
  it.each<[number, string, unknown, string, number]>([
    [400, envelope('missing_credentials'), ApiAuthError, 'missing_credentials', 77],
    [401, envelope('wrong_credentials'), ApiAuthError, 'wrong_credentials', 77],
    [403, envelope('access_rights'), ApiAuthError, 'access_rights', 77],
    [400, envelope('invalid_cursor', { context: { field: 'sort_key', recovery: 'restart' } }), ApiRequestError, 'invalid_cursor', 69],
    [400, envelope('feature_flag_disabled', { code: 'disabled', context: { feature: 'payments' } }), ApiRequestError, 'feature_flag_disabled', 69],
    [404, envelope('instance_not_found', { context: { wallet_id: 'w' } }), ApiRequestError, 'instance_not_found', 69],
    [429, envelope('rate_limited'), ApiRateLimitError, 'rate_limited', 75],
    [500, envelope('key_set_creation'), ApiServerError, 'key_set_creation', 69],
    [503, envelope('read_temporarily_unavailable'), ApiServerError, 'read_temporarily_unavailable', 69],
    [502, '<html><body><h1>502 Bad Gateway</h1></body></html>', ApiServerError, 'http_502', 69],
    [500, '', ApiServerError, 'http_500', 69],
    [500, '{"error": "not an object"}', ApiServerError, 'http_500', 69],
    [400, '{"type": "bare_envelope", "detail": "gateway style"}', ApiRequestError, 'bare_envelope', 69],
    [302, '', ApiRequestError, 'redirect_not_followed', 69],
    [400, envelope('has spaces; not a token'), ApiRequestError, 'http_400', 69],
  ])('%i %s → %o type %s exit %i', (status, body, klass, type, exit) => {
    const error = apiErrorFromResponse(facts(status, body), scrubber);
    expect(error).toBeInstanceOf(klass);
    expect(error.type).toBe(type);
    expect(error.status).toBe(status);
    expect(error.exitCode).toBe(exit);
    expect(error.method).toBe('GET');
    expect(error.path).toBe('/organizations/x/wallets');
  });

  it('keeps detail, code and context of the envelope', () => {
    const error = apiErrorFromResponse(facts(400, envelope('feature_flag_disabled', { code: 'disabled', context: { feature: 'payments' } })), scrubber);
    expect(error.detail).toBe('detail of feature_flag_disabled');
    expect(error.code).toBe('disabled');
    expect(error.context).toEqual({ feature: 'payments' });
    expect(error.message).toBe('GET /organizations/x/wallets → 400 feature_flag_disabled: detail of feature_flag_disabled');
  });

  it('strips HTML and scrubs a secret echoed by the server in detail, context and body', () => {
    const echoed = apiErrorFromResponse(facts(401, JSON.stringify({ error: { type: 'wrong_credentials', detail: `bad key ${KEY}`, context: { key: KEY } } })), scrubber);
    const html = apiErrorFromResponse(facts(500, `<html><p>x-api-key: ${KEY}</p></html>`), scrubber);
    for (const error of [echoed, html]) {
      expect(JSON.stringify({ m: error.message, d: error.detail, c: error.context, x: error.details })).not.toContain(KEY);
    }
    expect(html.detail).toBe('HTTP 500: x-api-key: [REDACTED]');
  });
});

describe('server text in messages', () => {
  it('is kept on one line without control characters (no terminal escapes)', () => {
    const error = apiErrorFromResponse(facts(500, JSON.stringify({ error: { type: 'x', detail: 'line1\nline2\u001b[31mred\u0007' } })), scrubber);
    expect(error.detail).toBe('line1 line2 [31mred');
    expect(error.message.includes('\n') || error.message.includes('\u001b')).toBe(false);
  });
});

describe('classifyTransportError', () => {
  const withCode = (code: string, message = code): Error => Object.assign(new Error(message), { code });
  it.each<[Error, TransportReason]>([
    [withCode('ECONNRESET'), 'reset'],
    [withCode('UND_ERR_SOCKET'), 'reset'],
    [withCode('UND_ERR_RES_CONTENT_LENGTH_MISMATCH'), 'reset'],
    [withCode('ECONNREFUSED'), 'refused'],
    [withCode('ENOTFOUND'), 'dns'],
    [withCode('EAI_AGAIN'), 'dns'],
    [withCode('UND_ERR_CONNECT_TIMEOUT'), 'timeout'],
    [withCode('UND_ERR_HEADERS_TIMEOUT'), 'timeout'],
    [withCode('CERT_HAS_EXPIRED'), 'tls'],
    [withCode('DEPTH_ZERO_SELF_SIGNED_CERT'), 'tls'],
    [withCode('ERR_TLS_CERT_ALTNAME_INVALID'), 'tls'],
    [withCode('ERR_SSL_WRONG_VERSION_NUMBER'), 'tls'],
    [new Error('wrapped', { cause: withCode('ECONNREFUSED') }), 'refused'],
    [new AggregateError([withCode('ECONNREFUSED'), withCode('ECONNREFUSED')], 'all failed'), 'refused'],
    [new Error('no code'), 'other'],
  ])('%s → %s', (error, reason) => {
    expect(classifyTransportError(error)).toBe(reason);
  });
});
