/**
 * The Postgres inbox between the HTTP answer and the snapshot (migration 004): the receiver
 * commits a verified delivery here before it answers, the worker claims pending rows with
 * `FOR UPDATE SKIP LOCKED` (several workers or listeners never take the same row) and marks them
 * done in the same transaction as the snapshot upsert. A crash anywhere leaves either an
 * unprocessed row (done again) or a processed one with its upsert committed — never a lost change.
 */
import { createHash } from 'node:crypto';
import type { Db, Queryable } from '../store/db/db.js';
import type { StoreSchema } from '../store/db/schema.js';
import { escapeText } from '../store/encoding/text-escape.js';
import type { VerifiedDelivery } from './verify-delivery.js';

export interface InboxFacts {
  kind: string;
  event: string | null;
  paymentId: string | null;
  environmentId: string | null;
  dedupeKey: string;
  bodySha256: string;
}

function text(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}

/**
 * What the inbox row records about a delivery, read from the verified (untrusted but authentic)
 * body. The dedupe key is the change itself — payment, event, status, updated_at — so the service
 * redelivering one change (a retry, or our 2xx lost on the way) stores one row.
 */
export function inboxFacts(delivery: VerifiedDelivery): InboxFacts {
  const payload = delivery.payload as { type?: unknown; detail?: { event?: unknown; data?: Record<string, unknown> } };
  const data = payload.detail?.data !== null && typeof payload.detail?.data === 'object' ? payload.detail.data : {};
  const kind = text(payload.type) ?? 'unknown';
  const event = text(payload.detail?.event);
  const paymentId = text(data['id'])?.toLowerCase() ?? null;
  const bodySha256 = createHash('sha256').update(delivery.text).digest('hex');
  const dedupeKey = paymentId === null ? `sha256:${bodySha256}` : ['payment', paymentId, kind, event ?? '', text(data['status']) ?? '', text(data['updated_at']) ?? ''].join(':');
  return { kind, event, paymentId, environmentId: text(data['environment_id'])?.toLowerCase() ?? null, dedupeKey, bodySha256 };
}

/** Inserts the delivery; false when the same change is already in the inbox. */
export async function insertDelivery(db: Queryable, schema: StoreSchema, delivery: VerifiedDelivery, facts: InboxFacts): Promise<boolean> {
  const { rowCount } = await db.query(
    `INSERT INTO ${schema.table('webhook_inbox')} (webhook_id, signed_at, body_sha256, dedupe_key, kind, event, payment_id, environment_id, body)
     VALUES ($1, $2::bigint, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT (dedupe_key) DO NOTHING`,
    [
      escapeText(delivery.webhookId),
      String(delivery.signedAt),
      facts.bodySha256,
      escapeText(facts.dedupeKey),
      escapeText(facts.kind),
      facts.event === null ? null : escapeText(facts.event),
      facts.paymentId === null ? null : escapeText(facts.paymentId),
      facts.environmentId === null ? null : escapeText(facts.environmentId),
      escapeText(delivery.text),
    ],
  );
  return rowCount > 0;
}

export interface ClaimedDelivery {
  inbox_id: string;
  kind: string;
  event: string | null;
  payment_id: string | null;
  environment_id: string | null;
  body: string;
  attempts: number;
}

/** Up to `limit` due rows, locked by this transaction until it ends; others skip them. */
export async function claimDeliveries(tx: Queryable, schema: StoreSchema, limit: number): Promise<ClaimedDelivery[]> {
  const { rows } = await tx.query<ClaimedDelivery>(
    `SELECT inbox_id::text AS inbox_id, kind, event, payment_id, environment_id, body, attempts FROM ${schema.table('webhook_inbox')}
     WHERE processed_at IS NULL AND next_attempt_at <= now() ORDER BY next_attempt_at, inbox_id LIMIT $1 FOR UPDATE SKIP LOCKED`,
    [limit],
  );
  return rows;
}

export async function markProcessed(tx: Queryable, schema: StoreSchema, outcomes: ReadonlyArray<{ inboxId: string; outcome: string }>): Promise<void> {
  if (outcomes.length === 0) return;
  await tx.query(
    `UPDATE ${schema.table('webhook_inbox')} i SET processed_at = now(), outcome = o.outcome, attempts = i.attempts + 1, last_error = NULL
     FROM unnest($1::text[], $2::text[]) AS o(inbox_id, outcome) WHERE i.inbox_id = o.inbox_id::bigint`,
    [outcomes.map((o) => o.inboxId), outcomes.map((o) => o.outcome)],
  );
}

/**
 * A failed attempt: counted, its error kept (no body, no secret), retried after a delay that
 * doubles per attempt from `baseSeconds` up to 5 minutes — a row that keeps failing (its re-read
 * refused) never spins, and never stops being retried either: the inbox depth metric shows it.
 */
export async function markFailed(db: Queryable, schema: StoreSchema, inboxIds: readonly string[], error: string, baseSeconds: number): Promise<void> {
  if (inboxIds.length === 0) return;
  await db.query(
    `UPDATE ${schema.table('webhook_inbox')} SET attempts = attempts + 1, last_error = $2,
       next_attempt_at = now() + make_interval(secs => least(300, $3::int * power(2, least(attempts, 8))))
     WHERE inbox_id = ANY($1::bigint[]) AND processed_at IS NULL`,
    [inboxIds, escapeText(error.slice(0, 500)), baseSeconds],
  );
}

export interface InboxDepth {
  pending: number;
  /** seconds the oldest pending row has waited, 0 when none */
  oldestSeconds: number;
}

export async function inboxDepth(db: Db, schema: StoreSchema): Promise<InboxDepth> {
  const { rows } = await db.query<{ pending: number; oldest: string | null }>(
    `SELECT count(*)::int AS pending, extract(epoch FROM now() - min(received_at))::text AS oldest FROM ${schema.table('webhook_inbox')} WHERE processed_at IS NULL`,
  );
  return { pending: rows[0]?.pending ?? 0, oldestSeconds: rows[0]?.oldest ? Number(rows[0].oldest) : 0 };
}
