import type { StatusClass, UtcInstant } from '../../model/rows.js';
import { decodeRow, selectList, type ColumnMap } from '../encoding/columns.js';
import type { Queryable } from '../db/db.js';
import type { StoreSchema } from '../db/schema.js';
import { escapeText } from '../encoding/text-escape.js';

/**
 * Questions asked of the payments table outside the report order: which payments are still open
 * (the nightly job re-reads them by id), and how a payment changed over time.
 */
export interface OpenPayment {
  payment_id: string;
  environment_id: string;
  wallet_id: string;
  direction: string;
  status: string;
  status_class: StatusClass;
  created_at: UtcInstant;
  updated_at: UtcInstant;
}

const OPEN_PAYMENT_COLUMNS = {
  payment_id: 'id',
  environment_id: 'id',
  wallet_id: 'id',
  direction: 'text',
  status: 'text',
  status_class: 'text',
  created_at: 'instant',
  updated_at: 'instant',
} as const satisfies ColumnMap<OpenPayment>;

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
export interface PaymentHistoryRow {
  payment_id: string;
  run_id: string | null;
  observed_at: UtcInstant;
  change: 'first_seen' | 'changed';
  changed_fields: string[];
  previous_status: string | null;
  status: string;
  status_class: StatusClass;
  updated_at: UtcInstant;
  currency: string;
  principal_base: bigint | null;
  network_fee_base: bigint | null;
  processing_fee_base: bigint | null;
  processing_fee_source: string;
  processing_fee_bps: number | null;
  processing_fee_terms_base: bigint | null;
  processing_fee_settled_base: bigint | null;
  processing_fee_diff_base: bigint | null;
  total_base: bigint | null;
  max_fee_base: bigint | null;
  reported_fees_base: bigint | null;
  rail_amount_base: bigint | null;
  rail_fee_base: bigint | null;
}

const HISTORY_COLUMNS = {
  payment_id: 'id',
  run_id: 'id',
  observed_at: 'instant',
  change: 'text',
  changed_fields: 'text[]',
  previous_status: 'text',
  status: 'text',
  status_class: 'text',
  updated_at: 'instant',
  currency: 'text',
  principal_base: 'bigint',
  network_fee_base: 'bigint',
  processing_fee_base: 'bigint',
  processing_fee_source: 'text',
  processing_fee_bps: 'number',
  processing_fee_terms_base: 'bigint',
  processing_fee_settled_base: 'bigint',
  processing_fee_diff_base: 'bigint',
  total_base: 'bigint',
  max_fee_base: 'bigint',
  reported_fees_base: 'bigint',
  rail_amount_base: 'bigint',
  rail_fee_base: 'bigint',
} as const satisfies ColumnMap<PaymentHistoryRow>;

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
    `SELECT ${selectList('h', HISTORY_COLUMNS)} FROM ${schema.table('payment_history')} h
     WHERE h.organization_id = $1 AND ($2::text IS NULL OR h.payment_id = $2::text) AND ($3::text IS NULL OR h.run_id = $3::text)
     ORDER BY h.payment_id, h.history_id LIMIT $4`,
    [
      escapeText(filter.organization_id),
      filter.payment_id === undefined ? null : escapeText(filter.payment_id),
      filter.run_id === undefined ? null : escapeText(filter.run_id),
      filter.limit ?? 10_000,
    ],
  );
  return rows.map((record) => decodeRow<PaymentHistoryRow>(HISTORY_COLUMNS, record));
}
