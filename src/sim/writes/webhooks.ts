import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { request } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { stringifyJson } from '../core/json.js';
import { parseDeliveryFaults, seededRandom, type DeliveryFaultConfig } from '../faults/delivery-faults.js';
import type { WebhookEventSelector } from './request-schemas.js';

/**
 * Webhook registrations and signed deliveries (docs/service-facts.md#webhooks):
 *   body       `{type: send|receive|test, detail: {event, data: <Payment>}}`
 *   signature  base64(HMAC-SHA256(shared_secret as UTF-8, raw_body + "." + timestamp))
 *   headers    x-voltage-signature, x-voltage-timestamp (unix seconds), x-voltage-webhook-id
 * Failed deliveries (non-2xx or connection error) are retried with backoff; each delivery is a
 * record the deliveries endpoints list, count and retry; faults (delivery-faults.ts) drop,
 * duplicate, reorder, delay or mis-sign deliveries.
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
  /** delivery faults from the start (delivery-faults.ts grammar or config) */
  faults?: string | DeliveryFaultConfig;
}

export type DeliveryStatus = 'attempting' | 'succeeded' | 'failed' | 'abandoned';

/** One delivery as the deliveries endpoints show it (OpenAPI `WebhookDeliveryRead`). */
export interface DeliveryRecord {
  id: string;
  webhookId: string;
  organizationId: string;
  url: string;
  status: DeliveryStatus;
  body: string;
  createdAt: string;
  updatedAt: string;
  attemptCount: number;
  statusCode: number | null;
  error: { code: string; detail: string } | null;
}

const ERROR_CODE = (status: number | null): string => (status === null ? 'connection_refused' : status === 429 ? 'rate_limited' : status === 413 ? 'payload_too_large' : status === 401 || status === 403 ? 'authentication_failed' : status >= 500 ? 'http_server_error' : 'http_client_error');

export class Webhooks {
  private readonly registrations = new Map<string, WebhookRegistration>();
  readonly deliveries: WebhookDelivery[] = [];
  /** every delivery by id, in creation order */
  readonly records = new Map<string, DeliveryRecord>();
  private inFlight = new Set<Promise<void>>();
  private closed = false;
  private faults: DeliveryFaultConfig = {};
  private random: () => number = seededRandom(0);

  constructor(private readonly options: WebhookOptions = {}) {
    this.setFaults(options.faults ?? null);
  }

  /** Replace the delivery faults (null = none). */
  setFaults(faults: string | DeliveryFaultConfig | null): void {
    this.faults = faults === null ? {} : typeof faults === 'string' ? parseDeliveryFaults(faults) : faults;
    this.random = seededRandom(this.faults.seed ?? 0);
  }

  has(id: string): boolean {
    return this.registrations.has(id.toLowerCase());
  }

  get(id: string): WebhookRegistration | undefined {
    return this.registrations.get(id.toLowerCase());
  }

  register(input: Omit<WebhookRegistration, 'sharedSecret' | 'createdAtMs'>): WebhookRegistration {
    const registration: WebhookRegistration = { ...input, id: input.id.toLowerCase(), sharedSecret: newSecret(), createdAtMs: Date.now() };
    this.registrations.set(registration.id, registration);
    return registration;
  }

  /** The keys endpoint: a new shared secret; every later delivery is signed with it alone. */
  rotate(id: string): WebhookRegistration | undefined {
    const registration = this.registrations.get(id.toLowerCase());
    if (registration) registration.sharedSecret = newSecret();
    return registration;
  }

  list(): WebhookRegistration[] {
    return [...this.registrations.values()];
  }

  /** Deliveries of one registration, newest first, optionally only some statuses. */
  recordsOf(webhookId: string, statuses?: readonly DeliveryStatus[]): DeliveryRecord[] {
    return [...this.records.values()].filter((r) => r.webhookId === webhookId.toLowerCase() && (statuses === undefined || statuses.length === 0 || statuses.includes(r.status))).reverse();
  }

  /** The retry endpoint: send a delivery again now (fresh timestamp and signature). */
  retry(record: DeliveryRecord): void {
    const registration = this.registrations.get(record.webhookId);
    if (!registration || this.closed) return;
    record.status = 'attempting';
    record.updatedAt = new Date().toISOString();
    const payload = JSON.parse(record.body) as { type: 'send' | 'receive'; detail: { event: string; data: { id?: string } } };
    this.track(this.attempts(registration, record, payload.type, payload.detail.event, payload.detail.data.id ?? '', this.forging()));
  }

  /** Deliver `event` of `type` to every registration of the environment that selected it. */
  emit(environmentIndex: number, type: 'send' | 'receive', event: string, payment: Record<string, unknown>, paymentId: string): void {
    if (this.closed) return;
    for (const r of this.registrations.values()) {
      if (r.environmentIndex !== environmentIndex) continue;
      const selected = r.events.some((e) => (type === 'send' ? 'send' in e && e.send === event : 'receive' in e && (e.receive === event || (event === 'completed' && e.receive === 'succeeded'))));
      if (!selected) continue;
      const body = stringifyJson({ type, detail: { event, data: payment } });
      const now = new Date().toISOString();
      const record: DeliveryRecord = { id: randomUUID(), webhookId: r.id, organizationId: r.organizationId, url: r.url, status: 'attempting', body, createdAt: now, updatedAt: now, attemptCount: 0, statusCode: null, error: null };
      this.records.set(record.id, record);
      if (this.random() < (this.faults.drop ?? 0)) {
        Object.assign(record, { status: 'failed', error: { code: 'connection_timeout', detail: 'dropped by the simulator (delivery fault)' } });
        continue;
      }
      const twice = this.random() < (this.faults.dup ?? 0);
      const holdMs = this.random() < (this.faults.reorder ?? 0) ? (this.faults.reorderMs ?? 300) : 0;
      const forging = this.forging();
      this.track(
        (async () => {
          if (holdMs > 0) await new Promise((resolve) => setTimeout(resolve, holdMs).unref());
          await this.attempts(r, record, type, event, paymentId, forging);
          if (twice) await this.attempts(r, record, type, event, paymentId, forging);
        })(),
      );
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

  /**
   * Whether each attempt of one delivery is mis-signed, drawn from a generator of the delivery's own,
   * seeded from the shared one when the delivery is emitted. Attempts run concurrently: had they
   * drawn from the shared generator, which delivery got which number would depend on timing, and a
   * seeded fault run would not be the same run twice. Null when no attempt is to be mis-signed.
   */
  private forging(): (() => number) | null {
    return (this.faults.badSignature ?? 0) > 0 ? seededRandom(Math.floor(this.random() * 4294967296)) : null;
  }

  private async attempts(r: WebhookRegistration, record: DeliveryRecord, type: 'send' | 'receive', event: string, paymentId: string, forging: (() => number) | null): Promise<void> {
    const maxAttempts = this.options.maxAttempts ?? 3;
    let delay = this.options.retryDelayMs ?? 200;
    const body = record.body;
    for (let attempt = 1; attempt <= maxAttempts && !this.closed; attempt++) {
      if (this.faults.delayMs) await new Promise((resolve) => setTimeout(resolve, this.faults.delayMs).unref());
      const timestamp = Math.floor(Date.now() / 1000);
      const forged = forging !== null && forging() < (this.faults.badSignature ?? 0);
      const headers = {
        'content-type': 'application/json',
        'x-voltage-signature': signWebhook(forged ? `${r.sharedSecret}-wrong` : r.sharedSecret, body, timestamp),
        'x-voltage-timestamp': String(timestamp),
        'x-voltage-webhook-id': r.id,
      };
      const outcome = await post(r.url, headers, body, this.options.timeoutMs ?? 5_000);
      this.deliveries.push({ webhookId: r.id, type, event, paymentId, attempt, status: outcome.status, ...(outcome.error ? { error: outcome.error } : {}), at: new Date().toISOString() });
      record.attemptCount++;
      record.statusCode = outcome.status;
      record.updatedAt = new Date().toISOString();
      if (outcome.status !== null && outcome.status >= 200 && outcome.status < 300) {
        Object.assign(record, { status: 'succeeded', error: null });
        return;
      }
      record.error = { code: ERROR_CODE(outcome.status), detail: outcome.error ?? `HTTP ${outcome.status}` };
      if (attempt < maxAttempts) await new Promise((resolve) => setTimeout(resolve, delay).unref());
      delay *= 2;
    }
    if (record.status === 'attempting') record.status = 'failed';
  }
}

function newSecret(): string {
  return `vltg_whsec_${randomBytes(24).toString('base64url')}`;
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
