/**
 * NET-14: a stale keep-alive socket. The client keeps idle sockets for 10 s (src/api/client.ts);
 * servers and load balancers often drop theirs sooner, and say nothing. A request written onto
 * such a socket meets a reset or an EOF instead of a response. Here a raw TCP server speaks
 * HTTP/1.1 keep-alive WITHOUT a `Keep-Alive: timeout` hint (so undici cannot know) and then:
 * (a) drops every idle socket after 50 ms with a FIN, or (b) resets the socket when the SECOND
 * request arrives on it — the race where the server's close crosses the client's request. Every
 * request of the user still resolves with its body; what it cost is counted.
 */
import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { makeClient } from '../../support/api/client-harness.js';

const BODY = '{"items":[{"id":"a"}]}';
const RESPONSE = `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(BODY)}\r\nconnection: keep-alive\r\n\r\n${BODY}`;

interface StaleServer {
  baseUrl: string;
  connections: number;
  requests: number;
  close(): Promise<void>;
}

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await new Promise((resolve) => server.close(resolve));
});

/** `onSecondRequest: 'reset'` destroys a socket when a second request arrives on it; `idleMs` ends idle sockets. */
async function staleServer(mode: { idleMs?: number; onSecondRequest?: 'reset' }): Promise<StaleServer> {
  const state = { connections: 0, requests: 0 };
  const server = createServer((socket: Socket) => {
    state.connections++;
    let served = 0;
    let idle: NodeJS.Timeout | undefined;
    let buffered = '';
    socket.on('error', () => undefined);
    socket.on('data', (chunk) => {
      buffered += chunk.toString('latin1');
      while (buffered.includes('\r\n\r\n')) {
        buffered = buffered.slice(buffered.indexOf('\r\n\r\n') + 4);
        clearTimeout(idle);
        if (served === 1 && mode.onSecondRequest === 'reset') {
          socket.resetAndDestroy();
          return;
        }
        served++;
        state.requests++;
        socket.write(RESPONSE);
        if (mode.idleMs !== undefined) idle = setTimeout(() => socket.end(), mode.idleMs);
      }
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    get connections() {
      return state.connections;
    },
    get requests() {
      return state.requests;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

describe('NET-14: a stale keep-alive socket never fails a request', () => {
  it('the server drops idle sockets (FIN) after 50 ms, long before the client’s 10 s keep-alive: every request succeeds on a fresh socket', async () => {
    const server = await staleServer({ idleMs: 50 });
    const { client } = makeClient(server.baseUrl);
    for (let i = 0; i < 5; i++) {
      await expect(client.get('/p')).resolves.toEqual({ items: [{ id: 'a' }] });
      await sleep(150); // idle past the server's timeout: the pooled socket is stale
    }
    expect(server.requests).toBe(5);
    expect(server.connections, 'a dropped socket is never reused').toBe(5);
    await client.close();
  });

  it('the server resets the socket as the next request arrives on it (the close crossing the request): retried on a new socket, the user sees the body', async () => {
    const server = await staleServer({ onSecondRequest: 'reset' });
    const { client, sleeps } = makeClient(server.baseUrl, { limiter: (await import('p-limit')).default(1) });
    const bodies: unknown[] = [];
    for (let i = 0; i < 4; i++) bodies.push(await client.get('/p'));
    expect(bodies).toEqual(Array.from({ length: 4 }, () => ({ items: [{ id: 'a' }] })));
    expect(server.requests).toBe(4);
    // each reuse met a reset; the client's retry loop (undici's Agent does not retry) took a new socket:
    // measured 4 connections, 3 resets, 3 retries — one per reset, each with its backoff
    const stats = client.stats();
    expect(server.connections).toBeGreaterThanOrEqual(2);
    expect(stats.byOutcome).toEqual({ '200': 4, reset: server.connections - 1 });
    expect(stats.retries).toBe(server.connections - 1);
    expect(sleeps.length).toBe(stats.retries);
    await client.close();
  });
});
