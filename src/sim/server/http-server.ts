import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { isUuid } from '../core/ids.js';
import { JsonSyntaxError, parseJsonLossless, stringifyJson } from '../core/json.js';
import type { FaultName } from '../faults/fault-config.js';
import type { FaultController } from '../faults/fault-controller.js';
import type { RequestLog } from '../request-log.js';
import { ApiError } from './api-error.js';
import type { Reply, RequestContext, SimState } from './context.js';
import { QueryParams } from './query-params.js';
import { matchRoute } from './routes.js';

/**
 * The simulator's HTTP layer on node:http: prefix `/v1`, route, authenticate, run the handler,
 * serialize (exact big integers), then inject the fault decided for this request — a replaced
 * status, a reset mid-body, a truncated body, a slow drip — and log one line.
 */

export interface HttpServerDeps {
  state: SimState;
  faults: FaultController;
  log: RequestLog;
  /** unexpected handler errors (bugs) are reported here; default: console.error */
  onError?: (error: unknown) => void;
  /** added to the clock of every `Date` header: a service whose clock is off (`payexport doctor`'s clock check) */
  clockOffsetMs?: number;
}

const PREFIX = '/v1';

function jsonReply(status: number, body: unknown, headers: Record<string, string> = {}): { status: number; payload: Buffer; headers: Record<string, string> } {
  return { status, payload: Buffer.from(stringifyJson(body)), headers: { 'content-type': 'application/json', ...headers } };
}

function faultReply(fault: FaultName, retryAfterSeconds: number): { status: number; payload: Buffer; headers: Record<string, string> } {
  switch (fault) {
    case '503':
      return jsonReply(503, { error: { type: 'read_temporarily_unavailable', detail: 'Payment data is temporarily unavailable; retry' } }, { 'retry-after': String(retryAfterSeconds) });
    case '429':
      return jsonReply(429, { error: { type: 'rate_limited', detail: 'Too many requests' } }, { 'retry-after': String(retryAfterSeconds) });
    case '500':
      return jsonReply(500, { error: { type: 'internal_error', detail: 'The server failed to complete the request' } });
    default: {
      // a proxy in front of the service answers 502/504 with HTML, not the JSON envelope
      const status = fault === '502' ? 502 : 504;
      const text = status === 502 ? 'Bad Gateway' : 'Gateway Timeout';
      return { status, payload: Buffer.from(`<html><head><title>${status} ${text}</title></head><body><h1>${status} ${text}</h1></body></html>\n`), headers: { 'content-type': 'text/html' } };
    }
  }
}

const STATUS_FAULTS: ReadonlySet<FaultName> = new Set(['500', '502', '503', '504', '429']);

export function createSimServer(deps: HttpServerDeps): Server {
  let inFlight = 0;
  let seq = 0;
  const server = createServer((req, res) => {
    inFlight++;
    const arrival = { seq: ++seq, inFlight, at: new Date(), started: performance.now() };
    // node:http writes its own Date header unless one is set; an offset one stands for a skewed clock
    if (deps.clockOffsetMs) res.setHeader('date', new Date(Date.now() + deps.clockOffsetMs).toUTCString());
    // set BEFORE the response is written: 'close' can fire before a promise continuation runs
    const logged: { status: number; fault?: string } = { status: 0 };
    const note = (status: number, fault?: string): void => {
      logged.status = status;
      if (fault !== undefined) logged.fault = fault;
    };
    res.on('close', () => {
      inFlight--;
      const url = req.url ?? '/';
      const q = url.indexOf('?');
      deps.log.add({
        seq: arrival.seq,
        at: arrival.at.toISOString(),
        method: req.method ?? 'GET',
        path: q < 0 ? url : url.slice(0, q),
        query: q < 0 ? '' : url.slice(q + 1),
        status: logged.status,
        in_flight: arrival.inFlight,
        duration_ms: Math.round((performance.now() - arrival.started) * 100) / 100,
        ...(logged.fault !== undefined ? { fault: logged.fault } : {}),
      });
    });
    handle(deps, req, res, note).catch((error: unknown) => {
      (deps.onError ?? console.error)(error);
      note(500);
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' }).end(stringifyJson({ error: { type: 'internal_error', detail: 'internal error' } }));
      else res.destroy();
    });
  });
  server.keepAliveTimeout = 10_000;
  return server;
}

async function handle(deps: HttpServerDeps, req: IncomingMessage, res: ServerResponse, note: (status: number, fault?: string) => void): Promise<void> {
  const method = req.method ?? 'GET';
  const url = new URL(req.url ?? '/', 'http://simulator.local');
  const decision = deps.faults.decide(method, url.pathname);
  if (decision.latencyMs > 0) await new Promise((resolve) => setTimeout(resolve, decision.latencyMs));

  if (decision.fault !== null && STATUS_FAULTS.has(decision.fault)) {
    deps.faults.noteInjected(decision.fault);
    const reply = faultReply(decision.fault, deps.faults.retryAfterSeconds);
    note(reply.status, decision.fault);
    send(res, reply.status, reply.headers, reply.payload);
    return;
  }

  let applied: FaultName | undefined;
  let reply: { status: number; payload: Buffer; headers: Record<string, string> };
  try {
    const ctxApplied = await dispatch(deps, req, method, url, decision.fault);
    applied = ctxApplied.applied;
    const r = ctxApplied.reply;
    if (r.json !== undefined) reply = { status: r.status, payload: Buffer.from(r.json), headers: { 'content-type': 'application/json', ...r.headers } };
    else reply = r.body === undefined ? { status: r.status, payload: Buffer.alloc(0), headers: r.headers ?? {} } : jsonReply(r.status, r.body, r.headers);
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    reply = jsonReply(error.status, error.body(), error.extra.headers);
  }
  if (applied) deps.faults.noteInjected(applied);

  switch (decision.fault) {
    case 'reset': {
      deps.faults.noteInjected('reset');
      note(reply.status, 'reset');
      res.writeHead(reply.status, { ...reply.headers, 'content-length': String(reply.payload.length) });
      const half = reply.payload.subarray(0, Math.floor(reply.payload.length / 2));
      res.write(half, () => res.destroy());
      return;
    }
    case 'truncate': {
      deps.faults.noteInjected('truncate');
      const cut = reply.payload.subarray(0, Math.max(0, Math.floor((reply.payload.length * 2) / 3)));
      note(reply.status, 'truncate');
      send(res, reply.status, reply.headers, cut);
      return;
    }
    case 'drip':
      deps.faults.noteInjected('drip');
      note(reply.status, 'drip');
      drip(res, reply, deps.faults.dripIntervalMs, deps.faults.dripChunkBytes);
      return;
    default:
      note(reply.status, applied);
      send(res, reply.status, reply.headers, reply.payload);
  }
}

function send(res: ServerResponse, status: number, headers: Record<string, string>, payload: Buffer): void {
  res.writeHead(status, { ...headers, 'content-length': String(payload.length) });
  res.end(payload);
}

function drip(res: ServerResponse, reply: { status: number; payload: Buffer; headers: Record<string, string> }, intervalMs: number, chunkBytes: number): void {
  res.writeHead(reply.status, { ...reply.headers, 'content-length': String(reply.payload.length) });
  let offset = 0;
  const timer = setInterval(() => {
    if (res.destroyed) {
      clearInterval(timer);
      return;
    }
    const chunk = reply.payload.subarray(offset, offset + chunkBytes);
    offset += chunk.length;
    if (offset >= reply.payload.length) {
      clearInterval(timer);
      res.end(chunk);
    } else res.write(chunk);
  }, intervalMs);
  res.on('close', () => clearInterval(timer));
}

async function dispatch(deps: HttpServerDeps, req: IncomingMessage, method: string, url: URL, fault: FaultName | null): Promise<{ reply: Reply; applied?: FaultName }> {
  const state = deps.state;
  if (url.pathname !== PREFIX && !url.pathname.startsWith(`${PREFIX}/`)) throw new ApiError(404, 'not_found', 'No such endpoint');
  const match = matchRoute(method, url.pathname.slice(PREFIX.length));
  if (match.route === null) throw match.methodMismatch ? new ApiError(405, 'method_not_allowed', `${method} is not allowed on this path`) : new ApiError(404, 'not_found', 'No such endpoint');
  const principal = state.credentials.authenticate({ 'x-api-key': req.headers['x-api-key'], authorization: req.headers.authorization });
  for (const [name, value] of Object.entries(match.params)) {
    if (!isUuid(value)) throw new ApiError(400, 'invalid_parameter', `Invalid path parameter ${name}: expected a UUID`);
  }
  let bodyPromise: Promise<unknown> | null = null;
  const ctx: RequestContext = {
    method,
    path: url.pathname,
    params: Object.fromEntries(Object.entries(match.params).map(([k, v]) => [k, v.toLowerCase()])),
    query: new QueryParams(url.search),
    principal,
    state,
    fault,
    body: () => (bodyPromise ??= readJsonBody(req, state.limits.maxBodyBytes)),
  };
  const reply = await match.route.handler(ctx);
  return ctx.applied ? { reply, applied: ctx.applied } : { reply };
}

/** Bodies must be JSON (415), at most `maxBytes` (413), well-formed (400 invalid_syntax). */
async function readJsonBody(req: IncomingMessage, maxBytes: number): Promise<unknown> {
  const type = req.headers['content-type'] ?? '';
  if (!/^application\/json\b/i.test(type)) throw new ApiError(415, 'missing_content_type', 'Expected request with `Content-Type: application/json`');
  const declared = Number(req.headers['content-length'] ?? NaN);
  if (Number.isFinite(declared) && declared > maxBytes) throw new ApiError(413, 'payload_too_large', `The request body is larger than ${maxBytes} bytes`, { headers: { connection: 'close' } });
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBytes) throw new ApiError(413, 'payload_too_large', `The request body is larger than ${maxBytes} bytes`, { headers: { connection: 'close' } });
    chunks.push(chunk);
  }
  try {
    return parseJsonLossless(Buffer.concat(chunks).toString('utf8'));
  } catch (error) {
    if (error instanceof JsonSyntaxError) throw new ApiError(400, 'invalid_syntax', `Failed to parse the request body as JSON: ${error.message}`);
    throw error;
  }
}
