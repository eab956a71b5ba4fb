/**
 * A scriptable node:http server on 127.0.0.1:0 for client tests: records every request (path,
 * query, headers) and the peak number of requests in flight, and lets each test misbehave on purpose.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  /** path + query exactly as sent */
  url: string;
  headers: IncomingMessage['headers'];
}

export type Handler = (req: IncomingMessage, res: ServerResponse, call: { n: number; request: RecordedRequest }) => unknown;

export interface FakeApiServer {
  /** http://127.0.0.1:PORT/v1 */
  baseUrl: string;
  origin: string;
  requests: RecordedRequest[];
  readonly maxInFlight: number;
  close(): Promise<void>;
}

export async function startFakeApi(handler: Handler): Promise<FakeApiServer> {
  const requests: RecordedRequest[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const server = createServer((req, res) => {
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    let done = false;
    const finish = (): void => {
      if (!done) {
        done = true;
        inFlight--;
      }
    };
    res.on('close', finish);
    res.on('finish', finish);
    const url = new URL(req.url ?? '/', 'http://localhost');
    const request: RecordedRequest = { method: req.method ?? 'GET', path: url.pathname, query: url.searchParams, url: req.url ?? '/', headers: req.headers };
    requests.push(request);
    Promise.resolve(handler(req, res, { n: requests.length, request })).catch((error: unknown) => {
      res.statusCode = 599;
      res.end(String(error));
    });
  });
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  return {
    baseUrl: `${origin}/v1`,
    origin,
    requests,
    get maxInFlight() {
      return maxInFlight;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

export function sendError(res: ServerResponse, status: number, type: string, detail = type, extra: Record<string, unknown> = {}, headers: Record<string, string> = {}): void {
  sendJson(res, status, { error: { type, detail, ...extra } }, headers);
}
