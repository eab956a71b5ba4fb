import { createHmac, randomBytes } from 'node:crypto';
import { request } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { stringifyJson } from '../core/json.js';
import type { WebhookEventSelector } from './request-schemas.js';

/**
 * Webhook registrations and signed deliveries (docs/service-facts.md#webhooks):
 *   body       `{type: send|receive|test, detail: {event, data: <Payment>}}`
 *   signature  base64(HMAC-SHA256(shared_secret as UTF-8, raw_body + "." + timestamp))
 *   headers    x-voltage-signature, x-voltage-timestamp (unix seconds), x-voltage-webhook-id
 * Failed deliveries (non-2xx or connection error) are retried with backoff.
 */

export function signWebhook(sharedSecret: string, rawBody: string, timestampSeconds: number): string {
  return createHmac('sha256', Buffer.from(sharedSecret, 'utf8')).update(`${rawBody}.${timestampSeconds}`).digest('base64');
}

export interface WebhookRegistration {
  id: string;
  organizationId: string;
  environmentIndex: number;
  url: string;
  name: string;
  events: WebhookEventSelector[];
  sharedSecret: string;
  createdAtMs: number;
}

export interface WebhookDelivery {
  webhookId: string;
  type: 'send' | 'receive' | 'test';
  event: string;
  paymentId: string | null;
  attempt: number;
  /** HTTP status of the receiver, or null when the connection failed */
  status: number | null;
  error?: string;
  at: string;
}

export interface WebhookOptions {
  /** attempts per event, default 3 */
  maxAttempts?: number;
  /** delay before the second attempt, doubled each time; default 200 ms */
  retryDelayMs?: number;
  /** per-attempt timeout, default 5 s */
  timeoutMs?: number;
}

export class Webhooks {
  private readonly registrations = new Map<string, WebhookRegistration>();
  readonly deliveries: WebhookDelivery[] = [];
  private inFlight = new Set<Promise<void>>();
  private closed = false;

  constructor(private readonly options: WebhookOptions = {}) {}

  has(id: string): boolean {
    return this.registrations.has(id.toLowerCase());
  }

  register(input: Omit<WebhookRegistration, 'sharedSecret' | 'createdAtMs'>): WebhookRegistration {
    const registration: WebhookRegistration = { ...input, id: input.id.toLowerCase(), sharedSecret: randomBytes(32).toString('base64'), createdAtMs: Date.now() };
    this.registrations.set(registration.id, registration);
    return registration;
  }

  list(): WebhookRegistration[] {
    return [...this.registrations.values()];
  }

  /** Deliver `event` of `type` to every registration of the environment that selected it. */
  emit(environmentIndex: number, type: 'send' | 'receive', event: string, payment: Record<string, unknown>, paymentId: string): void {
    if (this.closed) return;
    for (const r of this.registrations.values()) {
      if (r.environmentIndex !== environmentIndex) continue;
      const selected = r.events.some((e) => (type === 'send' ? 'send' in e && e.send === event : 'receive' in e && (e.receive === event || (event === 'completed' && e.receive === 'succeeded'))));
      if (!selected) continue;
      const body = stringifyJson({ type, detail: { event, data: payment } });
      this.track(this.deliver(r, type, event, paymentId, body));
    }
  }

  private track(p: Promise<void>): void {
    this.inFlight.add(p);
    void p.finally(() => this.inFlight.delete(p));
  }

  /** Resolves when every delivery started so far (with its retries) has finished. */
  async idle(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
  }

  close(): void {
    this.closed = true;
  }

  private async deliver(r: WebhookRegistration, type: 'send' | 'receive', event: string, paymentId: string, body: string): Promise<void> {
    const maxAttempts = this.options.maxAttempts ?? 3;
    let delay = this.options.retryDelayMs ?? 200;
    for (let attempt = 1; attempt <= maxAttempts && !this.closed; attempt++) {
      const timestamp = Math.floor(Date.now() / 1000);
      const headers = {
        'content-type': 'application/json',
        'x-voltage-signature': signWebhook(r.sharedSecret, body, timestamp),
        'x-voltage-timestamp': String(timestamp),
        'x-voltage-webhook-id': r.id,
      };
      const outcome = await post(r.url, headers, body, this.options.timeoutMs ?? 5_000);
      this.deliveries.push({ webhookId: r.id, type, event, paymentId, attempt, status: outcome.status, ...(outcome.error ? { error: outcome.error } : {}), at: new Date().toISOString() });
      if (outcome.status !== null && outcome.status >= 200 && outcome.status < 300) return;
      if (attempt < maxAttempts) await new Promise((resolve) => setTimeout(resolve, delay).unref());
      delay *= 2;
    }
  }
}

function post(url: string, headers: Record<string, string>, body: string, timeoutMs: number): Promise<{ status: number | null; error?: string }> {
  return new Promise((resolve) => {
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      resolve({ status: null, error: 'invalid url' });
      return;
    }
    const send = target.protocol === 'https:' ? httpsRequest : request;
    const req = send(target, { method: 'POST', headers: { ...headers, 'content-length': Buffer.byteLength(body) }, timeout: timeoutMs }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? null }));
      res.on('error', (e) => resolve({ status: null, error: e.message }));
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', (e) => resolve({ status: null, error: e.message }));
    req.end(body);
  });
}
