import { ApiError } from '../api-error.js';
import type { Handler, RequestContext } from '../context.js';
import type { DeliveryRecord, DeliveryStatus, WebhookRegistration } from '../../writes/webhooks.js';
import { requireEnvironment, requireWrite } from '../scope.js';
import { pageLimit } from './payments.js';

/**
 * Webhook key rotation and the deliveries endpoints (OpenAPI tag "Webhooks"): list (cursor or the
 * deprecated offset pagination, newest first, filtered by status), summary (an exact count), one
 * delivery, retry and abandon.
 */
const STATUSES: readonly DeliveryStatus[] = ['attempting', 'succeeded', 'failed', 'abandoned'];

function requireWebhook(ctx: RequestContext): WebhookRegistration {
  const e = requireEnvironment(ctx);
  const id = ctx.params['webhook_id'] ?? '';
  const registration = ctx.state.webhooks.get(id);
  if (!registration || registration.environmentIndex !== e) throw new ApiError(404, 'webhook_not_found', 'Webhook not found', { context: { webhook_id: id } });
  return registration;
}

function requireDelivery(ctx: RequestContext): DeliveryRecord {
  const registration = requireWebhook(ctx);
  const id = (ctx.params['delivery_id'] ?? '').toLowerCase();
  const record = ctx.state.webhooks.records.get(id);
  if (!record || record.webhookId !== registration.id) throw new ApiError(404, 'webhook_delivery_not_found', 'Webhook delivery not found', { context: { webhook_delivery_id: id } });
  return record;
}

function render(record: DeliveryRecord): Record<string, unknown> {
  return {
    id: record.id,
    webhook_id: record.webhookId,
    organization_id: record.organizationId,
    url: record.url,
    status: record.status,
    payload: JSON.parse(record.body) as unknown,
    created_at: record.createdAt,
    updated_at: record.updatedAt,
    attempt_count: record.attemptCount,
    status_code: record.statusCode,
    error: record.error?.detail ?? null,
    error_info: record.error === null ? null : { type: 'delivery_failed', code: record.error.code, detail: record.error.detail, context: record.statusCode === null ? null : { type: 'http_status', status_code: record.statusCode } },
  };
}

/** POST …/webhooks/{id}/keys: 202 with the new `{id, shared_secret}`. */
export const rotateWebhookKey: Handler = (ctx) => {
  requireWrite(ctx);
  const registration = requireWebhook(ctx);
  const rotated = ctx.state.webhooks.rotate(registration.id) as WebhookRegistration;
  return { status: 202, body: { id: rotated.id, shared_secret: rotated.sharedSecret } };
};

export const listDeliveries: Handler = (ctx) => {
  const registration = requireWebhook(ctx);
  const statuses = ctx.query.list('statuses', STATUSES);
  const all = ctx.state.webhooks.recordsOf(registration.id, statuses);
  const limit = pageLimit(ctx);
  if (ctx.query.string('pagination') === 'cursor') {
    const cursor = ctx.query.string('cursor');
    const start = cursor === undefined ? 0 : Number(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (!Number.isSafeInteger(start) || start < 0) throw new ApiError(400, 'invalid_parameter', 'Invalid cursor', { context: { parameter: 'cursor' } });
    const items = all.slice(start, start + limit).map(render);
    const more = start + limit < all.length;
    return { status: 200, body: { items, offset: 0, limit, next_cursor: more ? Buffer.from(String(start + limit)).toString('base64url') : null, has_more: more } };
  }
  const offset = ctx.query.uint32('offset') ?? 0;
  return { status: 200, body: { items: all.slice(offset, offset + limit).map(render), offset, limit, total: all.length } };
};

export const deliverySummary: Handler = (ctx) => {
  const registration = requireWebhook(ctx);
  const statuses = ctx.query.list('statuses', STATUSES) ?? [];
  return { status: 200, body: { webhook_id: registration.id, statuses, total_count: ctx.state.webhooks.recordsOf(registration.id, statuses).length, total_count_accuracy: 'exact' } };
};

export const getDelivery: Handler = (ctx) => ({ status: 200, body: render(requireDelivery(ctx)) });

export const retryDelivery: Handler = (ctx) => {
  requireWrite(ctx);
  const record = requireDelivery(ctx);
  ctx.state.webhooks.retry(record);
  return { status: 202 };
};

export const abandonDelivery: Handler = (ctx) => {
  requireWrite(ctx);
  const record = requireDelivery(ctx);
  record.status = 'abandoned';
  record.updatedAt = new Date().toISOString();
  return { status: 202 };
};
