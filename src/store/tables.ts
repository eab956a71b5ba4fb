import type { AssetRow, LedgerRow, PaymentRow, SummaryBucketRow, WalletBalanceRow, WalletRow } from '../normalize/rows.js';
import type { Finding } from '../reconcile/results.js';
import type { ColumnMap } from './columns.js';

/**
 * The row contracts as stored: which column holds each field and how (columns.ts). Column names
 * are the row field names; `migrations/` declare the same columns (001 and the columns 002 adds).
 */

export const PAYMENT_COLUMNS = {
  payment_id: 'id',
  organization_id: 'id',
  environment_id: 'id',
  wallet_id: 'id',
  direction: 'text',
  kind: 'text',
  category: 'text',
  route: 'text',
  status: 'text',
  status_class: 'text',
  created_at: 'instant',
  updated_at: 'instant',
  currency: 'text',
  unit: 'text',
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
  quote_rate: 'text',
  quote_from: 'text',
  quote_to: 'text',
  rail_currency: 'text',
  rail_amount_base: 'bigint',
  rail_fee_base: 'bigint',
  ledger_ids: 'text[]',
  tx_ids: 'text[]',
  payment_hashes: 'text[]',
  swap_steps: 'text[]',
  offset_payment_ids: 'text[]',
  error_type: 'text',
  error_code: 'text',
  error_detail: 'text',
  requested_amount_base: 'bigint',
  quote_id: 'id',
  quote_principal_base: 'bigint',
  description: 'text',
  metadata: 'json',
  flags: 'text[]',
  raw: 'json',
} as const satisfies ColumnMap<PaymentRow>;

/**
 * The fields whose change is a payment-history event (status, amounts, fees). Anything else
 * (updated_at, swap steps, raw) updates the current row silently.
 */
export const PAYMENT_HISTORY_FIELDS = [
  'status',
  'status_class',
  'currency',
  'principal_base',
  'network_fee_base',
  'processing_fee_base',
  'processing_fee_source',
  'processing_fee_bps',
  'processing_fee_terms_base',
  'processing_fee_settled_base',
  'processing_fee_diff_base',
  'total_base',
  'max_fee_base',
  'reported_fees_base',
  'rail_amount_base',
  'rail_fee_base',
] as const satisfies readonly (keyof PaymentRow)[];

export const LEDGER_COLUMNS = {
  entry_id: 'id',
  entry_type: 'id',
  wallet_id: 'id',
  environment_id: 'id',
  organization_id: 'id',
  payment_id: 'id',
  effective_time: 'instant',
  currency: 'text',
  unit: 'text',
  amount_base: 'bigint',
  effect: 'text',
  balance_effect_base: 'bigint',
  principal_base: 'bigint',
  network_fee_base: 'bigint',
  processing_fee_base: 'bigint',
  processing_fee_bps: 'number',
  flags: 'text[]',
  raw: 'json',
} as const satisfies ColumnMap<LedgerRow>;

/** A wallet without its balances, which live in their own table (one row per currency). */
export type StoredWallet = Omit<WalletRow, 'balances'>;

export const WALLET_COLUMNS = {
  wallet_id: 'id',
  organization_id: 'id',
  environment_id: 'id',
  name: 'text',
  active: 'bool',
  network: 'text',
  line_of_credit_id: 'id',
  limit_base: 'bigint',
  created_at: 'instant',
  updated_at: 'instant',
  deleted_at: 'instant',
  metadata: 'json',
  fee_policy: 'json',
  flags: 'text[]',
  raw: 'json',
} as const satisfies ColumnMap<StoredWallet>;

export interface StoredBalance extends WalletBalanceRow {
  organization_id: string;
  wallet_id: string;
  /** index in the wallet's `balances` array, so it reads back in the order written */
  position: number;
}

export const BALANCE_COLUMNS = {
  organization_id: 'id',
  wallet_id: 'id',
  currency: 'id',
  position: 'int',
  unit: 'text',
  available_base: 'bigint',
  total_base: 'bigint',
  effective_time: 'instant',
} as const satisfies ColumnMap<StoredBalance>;

export const ASSET_COLUMNS = {
  currency: 'id',
  asset_id: 'text',
  name: 'text',
  network: 'text',
  decimal_display: 'int',
  flags: 'text[]',
} as const satisfies ColumnMap<AssetRow>;

export const SUMMARY_COLUMNS = {
  scope: 'text',
  scope_id: 'id',
  environment_id: 'id',
  direction: 'text',
  status: 'text',
  currency: 'text',
  kind: 'text',
  api_count: 'bigint',
  oldest_created_at: 'instant',
  newest_created_at: 'instant',
  flags: 'text[]',
} as const satisfies ColumnMap<SummaryBucketRow>;

export const FINDING_COLUMNS = {
  check_id: 'text',
  severity: 'text',
  subject_kind: 'text',
  subject_id: 'text',
  wallet_id: 'id',
  currency: 'text',
  expected: 'text',
  actual: 'text',
  difference: 'text',
  message: 'text',
} as const satisfies ColumnMap<Finding>;

/** An upsert target: the table, its columns, its natural key and an optional version guard. */
export interface TableSpec<R> {
  table: string;
  columns: ColumnMap<R>;
  key: readonly (keyof R & string)[];
  /** an incoming row older than the stored one by this instant never overwrites it (stale re-reads) */
  version?: keyof R & string;
  /** the table carries first_run_id / first_seen_at / last_run_id / last_changed_at */
  tracksRuns: boolean;
  /**
   * the table carries `row_hash`, a digest of the row's encoded columns: a page is first compared
   * by hash, so unchanged rows are never sent again and new rows are COPied straight into the
   * table (load-rows.ts). For the big tables (payments, ledger).
   */
  hashed: boolean;
}

export const PAYMENTS: TableSpec<PaymentRow> = { table: 'payments', columns: PAYMENT_COLUMNS, key: ['organization_id', 'payment_id'], version: 'updated_at', tracksRuns: true, hashed: true };
export const LEDGER: TableSpec<LedgerRow> = { table: 'ledger_entries', columns: LEDGER_COLUMNS, key: ['organization_id', 'wallet_id', 'entry_type', 'entry_id'], tracksRuns: true, hashed: true };
export const WALLETS: TableSpec<StoredWallet> = { table: 'wallets', columns: WALLET_COLUMNS, key: ['organization_id', 'wallet_id'], version: 'updated_at', tracksRuns: true, hashed: false };
export const BALANCES: TableSpec<StoredBalance> = { table: 'wallet_balances', columns: BALANCE_COLUMNS, key: ['organization_id', 'wallet_id', 'currency'], version: 'effective_time', tracksRuns: false, hashed: false };
export const ASSETS: TableSpec<AssetRow> = { table: 'assets', columns: ASSET_COLUMNS, key: ['currency'], tracksRuns: true, hashed: false };
