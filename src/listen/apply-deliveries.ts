/**
 * One step of the inbox worker: claim a batch of pending deliveries, turn each into a payment row
 * with the snapshot's own normalization, and upsert them with the snapshot's own write path
 * (store/sql/load-rows.ts: history row per change, and the `updated_at` guard of store/sql/merge-sql.ts so an older
 * change arriving late never overwrites a newer one) — in ONE transaction with marking the rows
 * processed. A payload that lacks what a row needs is re-read by id from the API.
 */
import { parseJson } from '../api/json.js';
import { normalizePayment } from '../normalize/payment.js';
import type { PaymentRow } from '../model/rows.js';
import { instantText } from '../store/encoding/columns.js';
import type { Db, Queryable } from '../store/db/db.js';
import { loadRows } from '../store/sql/load-rows.js';
import type { StoreSchema } from '../store/db/schema.js';
import { PAYMENT_HISTORY } from '../store/snapshot-writer.js';
import { PAYMENTS } from '../store/sql/tables.js';
import { escapeText, unescapeText } from '../store/encoding/text-escape.js';
import { FAULTS_ARMED, faultPoint } from '../util/fault-points.js';
import { claimDeliveries, markFailed, markProcessed, type ClaimedDelivery } from './inbox.js';

export type DeliveryOutcome = 'applied' | 'stale' | 'ignored' | 'not_found' | 'unusable';

export interface ApplyDeps {
  db: Db;
  schema: StoreSchema;
  organizationId: string;
  /** the environment of a payload that names none (the configured one, when there is one) */
  defaultEnvironmentId: string | null;
  /** GET the payment by id; null when the service does not know it (404) */
  fetchPayment(environmentId: string, paymentId: string): Promise<unknown>;
  /** the listener's run id, recorded on the rows and history it writes */
  runId: string;
  batchSize: number;
}

export interface ApplyResult {
  claimed: number;
  /** rows whose re-read failed: left pending with a back-off */
  deferred: number;
  outcomes: Record<DeliveryOutcome, number>;
}

/** What a payment row needs; a payload without one of them is re-read (a partial delivery). */
let batchesSoFar = 0;

const REQUIRED = ['id', 'wallet_id', 'status', 'direction', 'created_at', 'updated_at'] as const;

function isComplete(data: unknown): data is Record<string, unknown> {
  if (data === null || typeof data !== 'object' || Array.isArray(data)) return false;
  return REQUIRED.every((field) => (data as Record<string, unknown>)[field] !== undefined && (data as Record<string, unknown>)[field] !== null);
}

type Prepared = { inboxId: string; outcome: DeliveryOutcome } | { inboxId: string; row: PaymentRow } | { inboxId: string; error: string };

async function prepare(deps: ApplyDeps, claimed: ClaimedDelivery): Promise<Prepared> {
  const inboxId = claimed.inbox_id;
  if (claimed.kind === 'test') return { inboxId, outcome: 'ignored' };
  let payload: { detail?: { data?: unknown } };
  try {
    payload = parseJson(unescapeText(claimed.body)) as typeof payload;
  } catch {
    return { inboxId, outcome: 'unusable' };
  }
  let data: unknown = payload?.detail?.data;
  const environmentId = claimed.environment_id ?? deps.defaultEnvironmentId;
  if (!isComplete(data)) {
    if (claimed.payment_id === null || environmentId === null) return { inboxId, outcome: 'unusable' };
    try {
      data = await deps.fetchPayment(environmentId, claimed.payment_id);
    } catch (error) {
      // This row waits and is retried; the rest of the batch goes ahead.
      return { inboxId, error: `re-read failed: ${error instanceof Error ? error.message : String(error)}` };
    }
    if (data === null) return { inboxId, outcome: 'not_found' };
  }
  const row = normalizePayment(data, { organization_id: deps.organizationId, environment_id: environmentId ?? '' });
  if (row.payment_id === '') return { inboxId, outcome: 'unusable' };
  return { inboxId, row };
}

/** One batch; returns how many rows it claimed (0 = the inbox had nothing due). Throws on a database error. */
export async function applyDeliveries(deps: ApplyDeps): Promise<ApplyResult> {
  const outcomes: Record<DeliveryOutcome, number> = { applied: 0, stale: 0, ignored: 0, not_found: 0, unusable: 0 };
  let claimedIds: string[] = [];
  let deferred: Array<{ inboxId: string; error: string }> = [];
  try {
    const claimed = await deps.db.transaction(async (tx) => {
      const batch = await claimDeliveries(tx, deps.schema, deps.batchSize);
      claimedIds = batch.map((c) => c.inbox_id);
      if (batch.length === 0) return 0;
      // The deliveries are committed and acknowledged; their upsert is not: a crash here must lose nothing.
      if (FAULTS_ARMED) faultPoint('listen:apply', { batches: ++batchesSoFar });
      const prepared: Prepared[] = [];
      // Sequential: a re-read is rare, and the batch holds its row locks meanwhile anyway.
      for (const item of batch) prepared.push(await prepare(deps, item));
      deferred = prepared.flatMap((p) => ('error' in p ? [p] : []));
      const candidates = prepared.flatMap((p) => ('row' in p ? [p] : []));
      const stored = await storedVersions(tx, deps.schema, deps.organizationId, [...new Set(candidates.map((p) => p.row.payment_id))]);
      // Per payment, the newest version of the batch wins; every other one, and any that is not
      // newer than the stored row, is `stale` and not written.
      const winners = new Map<string, { inboxId: string; row: PaymentRow }>();
      for (const p of candidates) {
        const best = winners.get(p.row.payment_id);
        if (best === undefined || isNewer(p.row, best.row)) winners.set(p.row.payment_id, p);
      }
      const rows: PaymentRow[] = [];
      const marks = prepared.flatMap((p) => {
        if ('error' in p) return [];
        if (!('row' in p)) return [{ inboxId: p.inboxId, outcome: p.outcome }];
        const before = stored.get(p.row.payment_id);
        const wins = winners.get(p.row.payment_id) === p && (before === undefined || !isNewer(before, p.row));
        if (wins) rows.push(p.row);
        return [{ inboxId: p.inboxId, outcome: (wins ? 'applied' : 'stale') as DeliveryOutcome }];
      });
      if (rows.length > 0) await loadRows(tx, deps.schema, PAYMENTS, rows, { runId: escapeText(deps.runId), viaStaging: true, history: PAYMENT_HISTORY });
      await markProcessed(tx, deps.schema, marks);
      for (const m of marks) outcomes[m.outcome]++;
      return batch.length;
    });
    for (const d of deferred) await markFailed(deps.db, deps.schema, [d.inboxId], d.error, 5);
    return { claimed, outcomes, deferred: deferred.length };
  } catch (error) {
    // The transaction rolled back: the rows are pending again. Count the attempt and back off so a
    // failing re-read (the API down) does not spin; the snapshot upsert is retried with them.
    await markFailed(deps.db, deps.schema, claimedIds, error instanceof Error ? error.message : String(error), 5).catch(() => undefined);
    throw error;
  }
}

/**
 * Which of two versions of a payment is the newer: the later `updated_at`; on a tie (two
 * transitions within the same microsecond), a final status over an open one — a payment never
 * goes back from completed, failed or expired.
 */
const RANK: Readonly<Record<string, number>> = { completed: 2, failed: 2, open: 1, unknown: 0 };
type Version = Pick<PaymentRow, 'updated_at' | 'status_class'>;

export function isNewer(a: Version, b: Version): boolean {
  // Canonical UtcInstants sort lexicographically in time order.
  if (a.updated_at !== b.updated_at) return a.updated_at > b.updated_at;
  return (RANK[a.status_class] ?? 0) > (RANK[b.status_class] ?? 0);
}

/** The stored versions, locked until the batch commits, so a sweep writing the same payments waits. */
async function storedVersions(tx: Queryable, schema: StoreSchema, organizationId: string, ids: readonly string[]): Promise<Map<string, Version>> {
  if (ids.length === 0) return new Map();
  const { rows } = await tx.query<{ payment_id: string; updated_at: string; status_class: PaymentRow['status_class'] }>(
    `SELECT payment_id, ${instantText('updated_at')} AS updated_at, status_class FROM ${schema.table('payments')}
     WHERE organization_id = $1 AND payment_id = ANY($2::text[]) ORDER BY payment_id FOR UPDATE`,
    [escapeText(organizationId), ids.map(escapeText)],
  );
  return new Map(rows.map((r) => [unescapeText(r.payment_id), { updated_at: r.updated_at, status_class: r.status_class }]));
}
