/**
 * The client against a real node:http server that misbehaves on purpose (docs/reliability.md#network-net).
 * Sleeps are recorded, not slept; only the deadline tests spend real time (a few hundred ms).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { ApiAuthError, ApiConnectionError, ApiRateLimitError, ApiRequestError, ApiServerError } from '../../../src/api/errors.js';
import { caught, makeClient, PLANTED_KEY } from '../../support/api/client-harness.js';
import { sendError, sendJson } from '../../support/api/fake-api-server.js';
import { serveFakeApi } from '../../support/api/serve-fake-api.js';


const OK_BODY = { items: [{ id: 'a', amount: 21 }] };
const OK_TEXT = '{"items":[{"id":"a","amount":2100000000000000001}]}';

describe('ApiClient: success path', () => {
  it('sends the key as x-api-key, parses big integers exactly and counts requests and bytes', async () => {
    const server = await serveFakeApi((_req, res) => sendJson(res, 200, OK_TEXT));
    const { client } = makeClient(server.baseUrl);
    const body = await client.get('/organizations/o/wallets', { query: [['statuses[]', 'completed'], ['statuses[]', 'failed'], ['metadata[k]', 'v w']] });
    expect(body).toEqual({ items: [{ id: 'a', amount: 2100000000000000001n }] });
    const [request] = server.requests;
    expect(request?.path).toBe('/v1/organizations/o/wallets');
    expect(request?.query.getAll('statuses[]')).toEqual(['completed', 'failed']);
    expect(request?.query.get('metadata[k]')).toBe('v w');
    expect(request?.headers['x-api-key']).toBe(PLANTED_KEY);
    expect(request?.headers.authorization).toBeUndefined();
    expect(client.stats()).toEqual({ requests: 1, retries: 0, bytes: OK_TEXT.length, byOutcome: { '200': 1 } });
    await client.close();
  });

  it('sends a bearer token as Authorization instead', async () => {
    const server = await serveFakeApi((_req, res) => sendJson(res, 200, OK_BODY));
    const { client } = makeClient(server.baseUrl, { auth: { kind: 'bearer', token: 'jwt.header.payload-sig' } });
    await client.get('/x');
    expect(server.requests[0]?.headers.authorization).toBe('Bearer jwt.header.payload-sig');
    expect(server.requests[0]?.headers['x-api-key']).toBeUndefined();
    await client.close();
  });
});

describe('ApiClient: faults', () => {
  it('recovers from a 503 burst within the budget', async () => {
    const server = await serveFakeApi((_req, res, { n }) => (n <= 3 ? sendError(res, 503, 'read_temporarily_unavailable') : sendJson(res, 200, OK_TEXT)));
    const { client, sleeps, memory } = makeClient(server.baseUrl);
    await expect(client.get('/p')).resolves.toEqual({ items: [{ id: 'a', amount: 2100000000000000001n }] });
    expect(server.requests).toHaveLength(4);
    expect(sleeps).toEqual([250, 500, 1_000]); // full jitter at random()=0.5 of 500·2^(n-1)
    expect(client.stats()).toMatchObject({ requests: 4, retries: 3, byOutcome: { '503': 3, '200': 1 } });
    expect(memory.records().filter((r) => r.msg === 'api retry')).toHaveLength(3);
    await client.close();
  });

  it('gives up on a persistent 503 after the per-request budget: ApiServerError, exit 69', async () => {
    const server = await serveFakeApi((_req, res) => sendError(res, 503, 'read_temporarily_unavailable'));
    const { client } = makeClient(server.baseUrl);
    const error = await caught(() => client.get('/p'));
    expect(error).toBeInstanceOf(ApiServerError);
    expect(error).toMatchObject({ status: 503, type: 'read_temporarily_unavailable', attempts: 5, exitCode: 69 });
    expect(server.requests).toHaveLength(5);
    await client.close();
  });

  it('stops retrying when the run budget is spent', async () => {
    const server = await serveFakeApi((_req, res) => sendError(res, 500, 'key_set_creation'));
    const { client } = makeClient(server.baseUrl, { retry: { runRetryBudget: 2 } });
    await caught(() => client.get('/p')); // 1 + 2 retries
    await caught(() => client.get('/p')); // budget spent: 1 attempt
    expect(server.requests).toHaveLength(4);
    expect(client.retryBudgetLeft).toBe(0);
    await client.close();
  });

  it('re-fetches after a connection reset mid-body', async () => {
    const server = await serveFakeApi((_req, res, { n }) => {
      if (n === 1) {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': 5_000 });
        res.write('{"items":[{"id":"a"');
        setTimeout(() => res.socket?.destroy(), 20);
        return;
      }
      sendJson(res, 200, OK_TEXT);
    });
    const { client } = makeClient(server.baseUrl);
    await expect(client.get('/p')).resolves.toMatchObject({ items: [{ id: 'a' }] });
    expect(server.requests).toHaveLength(2);
    expect(client.stats().byOutcome).toMatchObject({ reset: 1, '200': 1 });
    await client.close();
  });

  it('retries a truncated JSON body (complete HTTP, cut JSON) and fails with bad_body when it persists', async () => {
    const server = await serveFakeApi((_req, res, { n }) => sendJson(res, 200, n === 1 ? '{"items":[{"id":"a"' : OK_TEXT));
    const { client } = makeClient(server.baseUrl);
    await expect(client.get('/p')).resolves.toMatchObject({ items: [{ id: 'a' }] });
    expect(server.requests).toHaveLength(2);

    const broken = await serveFakeApi((_req, res) => sendJson(res, 200, '<html>maintenance</html>'));
    const second = makeClient(broken.baseUrl, { retry: { maxAttempts: 3 } });
    const error = await caught(() => second.client.get('/p'));
    expect(error).toBeInstanceOf(ApiConnectionError);
    expect(error).toMatchObject({ reason: 'bad_body', type: 'api_bad_body', exitCode: 69, attempts: 3 });
    await Promise.all([client.close(), second.client.close()]);
  });

  // The client's clock is fixed, so the HTTP date is exactly 3 s ahead: with the real clock the
  // date's whole seconds and the time the response took made the wait anywhere under 3 s.
  const NOW = Date.parse('Thu, 26 Nov 2026 10:00:00 GMT');
  it.each([
    ['seconds', '2', 2_000],
    ['an HTTP date', 'Thu, 26 Nov 2026 10:00:03 GMT', 3_000],
  ])('honours 429 Retry-After given in %s', async (_name, header, wait) => {
    const server = await serveFakeApi((_req, res, { n }) => (n === 1 ? sendError(res, 429, 'rate_limited', 'slow down', {}, { 'retry-after': header }) : sendJson(res, 200, OK_BODY)));
    const { client, sleeps } = makeClient(server.baseUrl, { now: () => NOW });
    await client.get('/p');
    // the floor is the server's wait; the jittered backoff of a first retry stays below it
    expect(sleeps).toEqual([wait]);
    await client.close();
  });

  it('ends a persistent 429 with exit 75 (temporary)', async () => {
    const server = await serveFakeApi((_req, res) => sendError(res, 429, 'rate_limited', 'slow down', {}, { 'retry-after': '1' }));
    const { client } = makeClient(server.baseUrl, { retry: { maxAttempts: 2 } });
    const error = await caught(() => client.get('/p'));
    expect(error).toBeInstanceOf(ApiRateLimitError);
    expect(error).toMatchObject({ exitCode: 75, attempts: 2 });
    await client.close();
  });

  it('aborts a slow drip at the TOTAL deadline even though bytes keep arriving', async () => {
    const timers: NodeJS.Timeout[] = [];
    const server = await serveFakeApi((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"items":[');
      timers.push(setInterval(() => res.write(' '), 40));
    });
    // bodyTimeout (idle) equals the deadline here, and a byte arrives every 40 ms: only the total deadline can fire.
    const { client } = makeClient(server.baseUrl, { timeoutMs: 250, retry: { maxAttempts: 2 } });
    const error = await caught(() => client.get('/p'));
    timers.forEach(clearInterval);
    expect(error).toBeInstanceOf(ApiConnectionError);
    expect(error).toMatchObject({ reason: 'timeout', type: 'api_timeout', exitCode: 69, attempts: 2 });
    expect(server.requests).toHaveLength(2);
    await client.close();
  });

  it('times out a server that never sends headers', async () => {
    const server = await serveFakeApi(() => undefined);
    const { client } = makeClient(server.baseUrl, { timeoutMs: 150, retry: { maxAttempts: 1 } });
    await expect(client.get('/p')).rejects.toMatchObject({ reason: 'timeout', exitCode: 69 });
    await client.close();
  });

  it('retries a refused connection, then exits 75', async () => {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as AddressInfo;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const { client, sleeps } = makeClient(`http://127.0.0.1:${port}/v1`, { retry: { maxAttempts: 3 } });
    const error = await caught(() => client.get('/p'));
    expect(error).toBeInstanceOf(ApiConnectionError);
    expect(error).toMatchObject({ reason: 'refused', type: 'api_refused', exitCode: 75, attempts: 3 });
    expect((error as Error).message).toContain(`127.0.0.1:${port}`);
    expect(sleeps).toHaveLength(2);
    await client.close();
  });

  it('never follows a redirect: the other host sees no request, exit 69, no retry', async () => {
    const other = await serveFakeApi((_req, res) => sendJson(res, 200, OK_BODY));
    const server = await serveFakeApi((_req, res) => {
      res.writeHead(302, { location: `${other.origin}/v1/p` });
      res.end();
    });
    const { client } = makeClient(server.baseUrl);
    const error = await caught(() => client.get('/p'));
    expect(error).toBeInstanceOf(ApiRequestError);
    expect(error).toMatchObject({ status: 302, type: 'redirect_not_followed', exitCode: 69 });
    expect(server.requests).toHaveLength(1);
    expect(other.requests).toHaveLength(0);
    await client.close();
  });

  it.each([
    [400, 'missing_credentials'],
    [401, 'wrong_credentials'],
    [403, 'access_rights'],
  ])('maps %i %s to exit 77 without retrying', async (status, type) => {
    const server = await serveFakeApi((_req, res) => sendError(res, status, type));
    const { client } = makeClient(server.baseUrl);
    const error = await caught(() => client.get('/p'));
    expect(error).toBeInstanceOf(ApiAuthError);
    expect(error).toMatchObject({ status, type, exitCode: 77, attempts: 1 });
    expect(server.requests).toHaveLength(1);
    await client.close();
  });

  it('retries a 404 only on a read marked as just created', async () => {
    const server = await serveFakeApi((_req, res, { n }) => (n % 3 === 0 ? sendJson(res, 200, { id: 'p' }) : sendError(res, 404, 'payment_not_found')));
    const { client } = makeClient(server.baseUrl);
    await expect(client.get('/p', { retry: { notFoundIsProcessing: true } })).resolves.toEqual({ id: 'p' });
    expect(server.requests).toHaveLength(3);
    await expect(client.get('/p')).rejects.toMatchObject({ status: 404, type: 'payment_not_found', attempts: 1 });
    await client.close();
  });

  it('refuses a body over the size cap without retrying', async () => {
    const server = await serveFakeApi((_req, res) => sendJson(res, 200, { items: 'x'.repeat(5_000) }));
    const { client } = makeClient(server.baseUrl, { maxResponseBytes: 1_000 });
    await expect(client.get('/p')).rejects.toMatchObject({ reason: 'too_large', exitCode: 69, attempts: 1 });
    await client.close();
  });

  it('refuses unsafe paths before any request', async () => {
    const server = await serveFakeApi((_req, res) => sendJson(res, 200, OK_BODY));
    const { client } = makeClient(server.baseUrl);
    for (const path of ['/a/../b', '/a?x=1', 'relative', '/a/%2e%2e/b', '/a b']) {
      await expect(client.get(path)).rejects.toThrow(TypeError);
    }
    expect(server.requests).toHaveLength(0);
    await client.close();
  });
});
