import { col, nullable, pickColumns, type RowOf } from '../../model/columns.js';
import { ASSET_COLUMNS, LEDGER_COLUMNS, PAYMENT_COLUMNS, WALLET_BALANCE_COLUMNS, WALLET_COLUMNS, type AssetRow, type LedgerRow, type PaymentRow, type WalletRow } from '../../model/rows.js';
import type { ColumnMap } from '../encoding/columns.js';

/**
 * The tables rows are stored in. Their columns are the rows' declarations in src/model/ (field,
 * kind, nullability), used as they are or picked from; `migrations/` declare the same columns
 * (001 and the columns 002 adds), and test/integration/store checks that they agree.
 */

/**
 * The fields whose change is a payment-history event (status, amounts, fees), in declaration
 * order. Anything else (updated_at, swap steps, raw) updates the current row silently.
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

/**
 * The columns every history table adds before the row's own (payment_history, bill_history):
 * who saw the change, when, what kind of change and which fields changed.
 */
export const HISTORY_EVENT_COLUMNS = {
  run_id: nullable(col.id()),
  observed_at: col.instant(),
  change: col.text<'first_seen' | 'changed'>(),
  changed_fields: col.textList(),
  previous_status: nullable(col.text()),
} as const;

/**
 * payment_history's columns after its identity and organization_id: the payment, the event, the
 * version and the tracked fields, in the order the history rows are written (merge-sql.ts).
 */
export const PAYMENT_HISTORY_COLUMNS = {
  ...pickColumns(PAYMENT_COLUMNS, ['payment_id']),
  ...HISTORY_EVENT_COLUMNS,
  ...pickColumns(PAYMENT_COLUMNS, ['updated_at', ...PAYMENT_HISTORY_FIELDS]),
} as const;

/** A wallet without its balances, which live in their own table (one row per currency). */
export type StoredWallet = Omit<WalletRow, 'balances'>;

/** A wallet balance as stored: keyed by its wallet, with its index in the wallet's `balances` (read back in the order written). */
export const STORED_BALANCE_COLUMNS = {
  ...pickColumns(WALLET_COLUMNS, ['organization_id', 'wallet_id']),
  currency: WALLET_BALANCE_COLUMNS.currency,
  position: col.int(),
  ...pickColumns(WALLET_BALANCE_COLUMNS, ['unit', 'available_base', 'total_base', 'effective_time']),
} as const;

export type StoredBalance = RowOf<typeof STORED_BALANCE_COLUMNS>;

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
export const BALANCES: TableSpec<StoredBalance> = { table: 'wallet_balances', columns: STORED_BALANCE_COLUMNS, key: ['organization_id', 'wallet_id', 'currency'], version: 'effective_time', tracksRuns: false, hashed: false };
export const ASSETS: TableSpec<AssetRow> = { table: 'assets', columns: ASSET_COLUMNS, key: ['currency'], tracksRuns: true, hashed: false };
