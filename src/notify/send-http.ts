/**
 * The HTTP destinations: the signed generic webhook, Slack's incoming webhook and the dead man's
 * switch ping. Each returns after its attempts within the policy's budget; none throws.
 */
import { signPayload } from '../util/webhook-signature.js';
import { httpPost } from './http-post.js';
import { renderSlack } from './render-slack.js';
import { renderWebhookBody } from './render-webhook.js';
import { attemptDelivery, type AttemptsOutcome, type DeliveryRetryPolicy } from '../util/delivery-attempts.js';
import type { RunMessage } from './run-message.js';
import { summaryLines } from './summary-lines.js';

/** Headers of a webhook delivery (docs/operations.md "Generic webhook"). */
export const WEBHOOK_HEADERS = {
  timestamp: 'x-payexport-timestamp',
  signature: 'x-payexport-signature',
  deliveryId: 'x-payexport-delivery-id',
  event: 'x-payexport-event',
  schema: 'x-payexport-schema',
} as const;

export interface WebhookInput {
  url: string;
  secret: string;
  /** the same for every attempt of one delivery, so a receiver can drop a repeat */
  deliveryId: string;
  message: RunMessage;
  policy: DeliveryRetryPolicy;
  /** unix seconds (injected for tests); each attempt is signed at its own time */
  nowSeconds?: () => number;
}

export function sendWebhook(input: WebhookInput): Promise<AttemptsOutcome> {
  const body = renderWebhookBody(input.message);
  const nowSeconds = input.nowSeconds ?? (() => Math.floor(Date.now() / 1000));
  return attemptDelivery(input.policy, async (timeoutMs) => {
    const timestamp = nowSeconds();
    await httpPost({
      url: input.url,
      body,
      timeoutMs,
      headers: {
        'content-type': 'application/json; charset=utf-8',
        [WEBHOOK_HEADERS.timestamp]: String(timestamp),
        [WEBHOOK_HEADERS.signature]: signPayload(input.secret, body, timestamp),
        [WEBHOOK_HEADERS.deliveryId]: input.deliveryId,
        [WEBHOOK_HEADERS.event]: input.message.test ? 'run.test' : 'run.finished',
        [WEBHOOK_HEADERS.schema]: input.message.schema,
      },
    });
  });
}

export function sendSlack(url: string, message: RunMessage, policy: DeliveryRetryPolicy): Promise<AttemptsOutcome> {
  const body = JSON.stringify(renderSlack(message));
  return attemptDelivery(policy, async (timeoutMs) => {
    await httpPost({ url, body, timeoutMs, headers: { 'content-type': 'application/json; charset=utf-8' } });
  });
}

export type PingEvent = 'start' | 'success' | 'fail' | 'log';

/**
 * healthchecks.io's convention, which cron monitors share: `<url>/start` when a run begins, the
 * bare `<url>` on success, `<url>/fail` on failure, and `<url>/log` (recorded, the check's state
 * unchanged) for `notify test`. The body (kept as the ping's log) says the exit code and the
 * summary; a query string on the URL (e.g. `?create=1`) is kept.
 */
export function pingUrl(base: string, event: PingEvent): string {
  if (event === 'success') return base;
  const url = new URL(base);
  url.pathname = `${url.pathname.replace(/\/+$/, '')}/${event}`;
  return url.toString();
}

export function pingBody(event: PingEvent, message: RunMessage | null): string {
  if (event === 'start' || message === null) return '';
  if (event === 'log') return [message.headline, ''].join('\n');
  return [`exit ${message.exit_code}`, message.headline, ...summaryLines(message).map((l) => `${l.label}: ${l.value}`), ''].join('\n');
}

export function sendPing(base: string, event: PingEvent, message: RunMessage | null, policy: DeliveryRetryPolicy, bodyText?: string): Promise<AttemptsOutcome> {
  const url = pingUrl(base, event);
  const body = bodyText ?? pingBody(event, message);
  return attemptDelivery(policy, async (timeoutMs) => {
    await httpPost({ url, body, timeoutMs, headers: { 'content-type': 'text/plain; charset=utf-8' } });
  });
}
