import { pickColumns, type RowOf } from '../../model/columns.js';
import { PAYMENT_COLUMNS, type UtcInstant } from '../../model/rows.js';
import { decodeRow, selectList } from '../encoding/columns.js';
import type { Queryable } from '../db/db.js';
import type { StoreSchema } from '../db/schema.js';
import { PAYMENT_HISTORY_COLUMNS } from './tables.js';
import { escapeText } from '../encoding/text-escape.js';

/**
 * Questions asked of the payments table outside the report order: which payments are still open
 * (the nightly job re-reads them by id), how a payment changed over time, and which payments the
 * snapshot holds at all. Their select lists
 * are picks of the payment's column declaration.
 */
const OPEN_PAYMENT_COLUMNS = pickColumns(PAYMENT_COLUMNS, ['payment_id', 'environment_id', 'wallet_id', 'direction', 'status', 'status_class', 'created_at', 'updated_at']);

export type OpenPayment = RowOf<typeof OPEN_PAYMENT_COLUMNS>;

export interface OpenPaymentsFilter {
  wallet_ids?: readonly string[];
  /** only payments created before this instant */
  created_before?: UtcInstant;
}

/**
 * Payments not terminal at their last observation (status_class `open`, or `unknown` — a status
 * the service added that we cannot classify, so it is re-read too), sorted by (wallet_id,
 * created_at, payment_id). Served by a partial index, so it stays cheap however large the table.
 */
export async function openPayments(db: Queryable, schema: StoreSchema, organizationId: string, filter: OpenPaymentsFilter = {}): Promise<OpenPayment[]> {
  const { rows } = await db.query(
    `SELECT ${selectList('p', OPEN_PAYMENT_COLUMNS)} FROM ${schema.table('payments')} p
     WHERE p.organization_id = $1 AND p.status_class IN ('open', 'unknown')
       AND ($2::text[] IS NULL OR p.wallet_id = ANY($2::text[]))
       AND ($3::timestamptz IS NULL OR p.created_at < $3::timestamptz)
     ORDER BY p.wallet_id, p.created_at, p.payment_id`,
    [escapeText(organizationId), filter.wallet_ids === undefined ? null : filter.wallet_ids.map(escapeText), filter.created_before ?? null],
  );
  return rows.map((record) => decodeRow<OpenPayment>(OPEN_PAYMENT_COLUMNS, record));
}

/** One row of payment_history: what a payment looked like after an observed change. */
export type PaymentHistoryRow = RowOf<typeof PAYMENT_HISTORY_COLUMNS>;

export interface PaymentHistoryFilter {
  organization_id: string;
  /** one payment's history; omit to list a run's or the organization's */
  payment_id?: string;
  run_id?: string;
  /** default 10 000 */
  limit?: number;
}

/** History rows, oldest first (by payment, then in the order they were observed). */
export async function listPaymentHistory(db: Queryable, schema: StoreSchema, filter: PaymentHistoryFilter): Promise<PaymentHistoryRow[]> {
  const { rows } = await db.query(
    `SELECT ${selectList('h', PAYMENT_HISTORY_COLUMNS)} FROM ${schema.table('payment_history')} h
     WHERE h.organization_id = $1 AND ($2::text IS NULL OR h.payment_id = $2::text) AND ($3::text IS NULL OR h.run_id = $3::text)
     ORDER BY h.payment_id, h.history_id LIMIT $4`,
    [
      escapeText(filter.organization_id),
      filter.payment_id === undefined ? null : escapeText(filter.payment_id),
      filter.run_id === undefined ? null : escapeText(filter.run_id),
      filter.limit ?? 10_000,
    ],
  );
  return rows.map((record) => decodeRow<PaymentHistoryRow>(PAYMENT_HISTORY_COLUMNS, record));
}

/** Up to this many ids per `= ANY($1)` lookup. */
const ID_CHUNK = 10_000;

/** Which of these payments the snapshot holds (the ids as given). */
export async function knownPaymentIds(db: Queryable, schema: StoreSchema, organizationId: string, paymentIds: readonly string[]): Promise<Set<string>> {
  const known = new Set<string>();
  const wanted = new Map(paymentIds.map((id) => [escapeText(id), id]));
  const escaped = [...wanted.keys()];
  for (let start = 0; start < escaped.length; start += ID_CHUNK) {
    const { rows } = await db.query<{ payment_id: string }>(
      `SELECT payment_id FROM ${schema.table('payments')} WHERE organization_id = $1 AND payment_id = ANY($2::text[])`,
      [escapeText(organizationId), escaped.slice(start, start + ID_CHUNK)],
    );
    for (const row of rows) known.add(wanted.get(row.payment_id) ?? row.payment_id);
  }
  return known;
}
