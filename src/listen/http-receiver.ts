/**
 * The listener's HTTP face, on node:http: one POST route for deliveries plus /healthz, /readyz
 * and /metrics. node:http rather than a framework because the route needs the raw bytes (the
 * signature covers them exactly, before any parsing), a hard body cap enforced while reading, and
 * nothing else — a framework would have to be told to keep its body parser away from the one
 * route that matters, and would add a dependency to audit.
 *
 * A delivery: size cap → verify (verify-delivery.ts) → one INSERT into the inbox → 204. Refusals
 * answer a bare status (401 for anything about authenticity, 400 for a body that is not JSON,
 * 413 oversize, 415 not JSON by content type) — no detail for a prober — and are counted and
 * logged without the body, the signature or any secret. A failed insert answers 503 so the
 * service retries: nothing is acknowledged that was not committed.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Logger } from '../util/log.js';
import { count, type ListenerMetrics } from './metrics.js';
import { verifyDelivery, type Rejection, type VerifiedDelivery } from './verify-delivery.js';

export interface ReceiverOptions {
  path: string;
  maxBodyBytes: number;
  toleranceSeconds: number;
  secretsFor(webhookId: string): readonly string[] | undefined;
  /** commits the delivery; true = new, false = already in the inbox; throws when not stored */
  store(delivery: VerifiedDelivery): Promise<boolean>;
  ready(): Promise<boolean>;
  metricsText(): Promise<string>;
  metrics: ListenerMetrics;
  log: Logger;
  nowSeconds(): number;
}

const STATUS_OF: Readonly<Record<Rejection, number>> = {
  missing_headers: 401,
  bad_timestamp: 401,
  stale_timestamp: 401,
  future_timestamp: 401,
  unknown_webhook: 401,
  bad_signature: 401,
  not_json: 400,
  not_utf8: 400,
};

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** The registration id as far as it is safe to log: an untrusted header, so shape-checked and cut. */
function loggableId(value: string | undefined): string | null {
  if (value === undefined) return null;
  return /^[0-9A-Fa-f-]{1,36}$/.test(value) ? value.toLowerCase() : '(malformed)';
}

function answer(res: ServerResponse, status: number, body = '', type = 'text/plain; charset=utf-8'): void {
  res.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(body), 'cache-control': 'no-store' });
  res.end(body);
}

class ClientGone extends Error {
  override readonly name = 'ClientGone';
}

/** Reads the body up to `limit` bytes; null when it is larger (the rest is not read). */
function readBody(req: IncomingMessage, limit: number): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    req.on('data', (chunk: Buffer) => {
      if (done) return;
      size += chunk.length;
      if (size > limit) {
        done = true;
        req.pause();
        resolve(null);
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      if (done) return;
      done = true;
      resolve(Buffer.concat(chunks, size));
    });
    req.on('error', (error) => {
      if (!done) reject(req.complete ? error : new ClientGone());
    });
    // a client that goes away mid-body: nothing to verify, nobody to answer
    req.on('close', () => {
      if (!done && !req.complete) reject(new ClientGone());
    });
  });
}

export function createReceiver(options: ReceiverOptions): Server {
  const { metrics, log } = options;

  const refuse = (res: ServerResponse, reason: string, status: number, facts: Record<string, unknown>): void => {
    count(metrics.deliveries, reason);
    log.warn({ outcome: reason, status, ...facts }, 'webhook delivery refused');
    // An oversize body is left unread: close the connection rather than drain it.
    if (status === 413) res.setHeader('connection', 'close');
    answer(res, status);
  };

  const onDelivery = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const webhookHeader = header(req, 'x-voltage-webhook-id');
    const base = { webhook_id: loggableId(webhookHeader) };
    const declared = Number(header(req, 'content-length') ?? '0');
    if (Number.isFinite(declared) && declared > options.maxBodyBytes) return refuse(res, 'too_large', 413, base);
    const type = (header(req, 'content-type') ?? '').toLowerCase();
    if (!type.startsWith('application/json')) return refuse(res, 'unsupported_media_type', 415, base);
    const rawBody = await readBody(req, options.maxBodyBytes);
    if (rawBody === null) return refuse(res, 'too_large', 413, base);
    const verified = verifyDelivery({
      headers: { webhookId: webhookHeader, timestamp: header(req, 'x-voltage-timestamp'), signature: header(req, 'x-voltage-signature') },
      rawBody,
      nowSeconds: options.nowSeconds(),
      toleranceSeconds: options.toleranceSeconds,
      secretsFor: options.secretsFor,
    });
    if (!verified.ok) return refuse(res, verified.reason, STATUS_OF[verified.reason], { ...base, skew_s: verified.skewSeconds, bytes: rawBody.length });
    let fresh: boolean;
    try {
      fresh = await options.store(verified.delivery);
    } catch (error) {
      count(metrics.deliveries, 'store_failed');
      log.error({ outcome: 'store_failed', ...base, error: error instanceof Error ? error.message : String(error) }, 'webhook delivery not stored; answered 503 so it is retried');
      return answer(res, 503);
    }
    count(metrics.deliveries, fresh ? 'accepted' : 'duplicate');
    log.debug({ outcome: fresh ? 'accepted' : 'duplicate', ...base, skew_s: verified.skewSeconds }, 'webhook delivery stored');
    answer(res, 204);
  };

  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    const handle = async (): Promise<void> => {
      if (path === options.path) {
        if (req.method !== 'POST') {
          res.setHeader('allow', 'POST');
          return answer(res, 405);
        }
        return onDelivery(req, res);
      }
      if (req.method !== 'GET' && req.method !== 'HEAD') return answer(res, 405);
      if (path === '/healthz') return answer(res, 200, 'ok\n');
      if (path === '/readyz') return (await options.ready()) ? answer(res, 200, 'ready\n') : answer(res, 503, 'not ready\n');
      if (path === '/metrics') return answer(res, 200, await options.metricsText(), 'text/plain; version=0.0.4; charset=utf-8');
      return answer(res, 404);
    };
    handle().catch((error: unknown) => {
      if (error instanceof ClientGone) {
        count(metrics.deliveries, 'client_gone');
        return;
      }
      log.error({ error: error instanceof Error ? error.message : String(error), path }, 'listener request failed');
      if (!res.headersSent) answer(res, 500);
      else res.destroy();
    });
  });
  // The service waits 10 s for an answer; a client that trickles its request gets less than that.
  server.requestTimeout = 8_000;
  server.headersTimeout = 5_000;
  server.keepAliveTimeout = 5_000;
  return server;
}
