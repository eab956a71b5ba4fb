import pLimit from 'p-limit';
import { describe, expect, it } from 'vitest';
import { ApiClient, createApiStats } from '../../../src/api/client.js';
import { createMemoryLogger } from '../../../src/util/log.js';
import { SecretScrubber } from '../../../src/util/secret-scrubber.js';
import { caught, makeClient, PLANTED_KEY } from '../../support/api/client-harness.js';
import { sendError, sendJson } from '../../support/api/fake-api-server.js';
import { serveFakeApi } from '../../support/api/serve-fake-api.js';


describe('the run limiter', () => {
  it('never lets more than N requests be in flight at the server, across every caller', async () => {
    const server = await serveFakeApi((_req, res, { n }) => setTimeout(() => (n % 7 === 0 ? sendError(res, 503, 'busy') : sendJson(res, 200, { n })), 15));
    const limiter = pLimit(3);
    const stats = createApiStats();
    const { client } = makeClient(server.baseUrl, { limiter, stats });
    const { client: second } = makeClient(server.baseUrl, { limiter, stats }); // another environment's client, same run
    const results = await Promise.all(Array.from({ length: 40 }, (_v, i) => (i % 2 === 0 ? client : second).get(`/r/${i}`)));
    expect(results).toHaveLength(40);
    expect(server.maxInFlight).toBe(3);
    expect(server.requests.length).toBeGreaterThan(40); // the 503s were retried
    expect(stats.requests).toBe(server.requests.length); // one set of counters for the run
    expect(stats.retries).toBe(server.requests.length - 40);
    await Promise.all([client.close(), second.close()]);
  });

  it('does not hold a slot during a backoff sleep', async () => {
    const server = await serveFakeApi((req, res) => (req.url?.includes('/flaky') && server.requests.filter((r) => r.path.endsWith('/flaky')).length === 1 ? sendError(res, 503, 'busy') : sendJson(res, 200, { ok: req.url })));
    let wake: (() => void) | undefined;
    let sleeping: (() => void) | undefined;
    const asleep = new Promise<void>((resolve) => (sleeping = resolve));
    const { client } = makeClient(server.baseUrl, {
      limiter: pLimit(1),
      sleep: () =>
        new Promise<void>((resolve) => {
          wake = resolve;
          sleeping?.();
        }),
    });
    const flaky = client.get('/flaky');
    await asleep; // the first attempt failed and the retry loop is now sleeping
    await expect(client.get('/other')).resolves.toEqual({ ok: '/v1/other' }); // the single slot is free
    wake?.();
    await expect(flaky).resolves.toEqual({ ok: '/v1/flaky' });
    await client.close();
  });
});

describe('secrets never leave the module', () => {
  const encodings = [PLANTED_KEY, encodeURIComponent(PLANTED_KEY), Buffer.from(PLANTED_KEY).toString('base64'), Buffer.from(`Bearer ${PLANTED_KEY}`).toString('base64')];
  const assertClean = (text: string): void => {
    for (const form of encodings) expect(text).not.toContain(form);
  };
  const errorText = (error: unknown): string => {
    const parts: string[] = [];
    let current: unknown = error;
    for (let depth = 0; current instanceof Error && depth < 10; depth++) {
      parts.push(current.message, String(current.stack), JSON.stringify(current), JSON.stringify((current as { details?: unknown }).details ?? null));
      current = current.cause;
    }
    return parts.join('\n');
  };

  it('a server that echoes the key in bodies, HTML and resets: no trace in logs at any level, messages or causes', async () => {
    const server = await serveFakeApi((req, res, { n }) => {
      const key = String(req.headers['x-api-key']);
      if (n % 3 === 1) return sendJson(res, 500, { error: { type: 'key_set_creation', detail: `bad ${key}`, context: { key, b64: Buffer.from(key).toString('base64') } } });
      if (n % 3 === 2) {
        res.writeHead(502, { 'content-type': 'text/html' });
        return res.end(`<html><pre>x-api-key: ${key}\n${encodeURIComponent(key)}</pre></html>`);
      }
      res.writeHead(200, { 'content-length': 1_000 });
      res.write(`{"echo": "${key}`);
      setTimeout(() => res.socket?.destroy(new Error(`boom ${key}`)), 10);
    });
    const { client, memory } = makeClient(server.baseUrl, { retry: { maxAttempts: 6 } });
    const error = await caught(() => client.get('/p'));
    expect(server.requests).toHaveLength(6);
    expect(memory.lines.length).toBeGreaterThan(6);
    memory.log.error({ err: error }, 'the run failed');
    memory.log.trace({ err: error, headers: { 'x-api-key': PLANTED_KEY }, apiKey: PLANTED_KEY }, 'trace with everything');
    assertClean(memory.lines.join('\n'));
    assertClean(errorText(error));
  });

  it('a transport error whose cause chain carries the key comes out scrubbed', async () => {
    const scrubber = new SecretScrubber();
    const memory = createMemoryLogger({ scrubber });
    const poisoned = Object.assign(new Error(`connect failed for ${PLANTED_KEY}`), { code: 'ECONNRESET', cause: new Error(`inner ${Buffer.from(PLANTED_KEY).toString('base64')}`) });
    const dispatcher = {
      dispatch: () => {
        throw poisoned;
      },
      close: async () => undefined,
    };
    const client = new ApiClient({
      baseUrl: 'http://127.0.0.1:9/v1',
      auth: { kind: 'apiKey', apiKey: PLANTED_KEY },
      limiter: pLimit(1),
      log: memory.log,
      scrubber,
      dispatcher: dispatcher as never,
      retry: { maxAttempts: 2 },
      sleep: async () => undefined,
    });
    const error = await caught(() => client.get('/p'));
    expect(error).toMatchObject({ reason: 'reset', attempts: 2 });
    expect((error as Error).cause).not.toBe(poisoned);
    memory.log.error({ err: error }, 'failed');
    assertClean(errorText(error));
    assertClean(memory.lines.join('\n'));
  });

  it('rejects credentials with whitespace or control characters without echoing them', () => {
    const scrubber = new SecretScrubber();
    for (const apiKey of ['', '   ', `${PLANTED_KEY}\r\nx-evil: 1`]) {
      const error = (() => {
        try {
          new ApiClient({ baseUrl: 'https://example.test/v1', auth: { kind: 'apiKey', apiKey }, limiter: pLimit(1), log: createMemoryLogger().log, scrubber });
        } catch (e) {
          return e;
        }
        return undefined;
      })();
      expect(error).toMatchObject({ exitCode: 78 });
      assertClean(errorText(error));
    }
  });
});
