import type { BillLineItemRow, BillRow, BillSummaryRow } from '../../model/rows.js';
import type { ColumnMap } from '../encoding/columns.js';
import type { TableSpec } from './tables.js';

/** The bill tables as stored (migrations/006_bills.sql declares the same columns). */

export const BILL_COLUMNS = {
  bill_id: 'id',
  organization_id: 'id',
  line_of_credit_id: 'id',
  start_time: 'instant',
  end_time: 'instant',
  period_length: 'text',
  status: 'text',
  settlement_type: 'text',
  currency: 'text',
  unit: 'text',
  amt_due_base: 'bigint',
  amt_paid_base: 'bigint',
  service_fee_base: 'bigint',
  settlement_fee_base: 'bigint',
  wallet_ids: 'text[]',
  created_at: 'instant',
  updated_at: 'instant',
  due_date: 'instant',
  flags: 'text[]',
  raw: 'json',
} as const satisfies ColumnMap<BillRow>;

/** A change of these is a bill-history event; anything else updates the current row silently. */
export const BILL_HISTORY_FIELDS = ['status', 'settlement_type', 'amt_due_base', 'amt_paid_base', 'service_fee_base', 'settlement_fee_base'] as const satisfies readonly (keyof BillRow)[];

export const BILL_LINE_ITEM_COLUMNS = {
  organization_id: 'id',
  bill_id: 'id',
  position: 'int',
  wallet_id: 'id',
  currency: 'text',
  unit: 'text',
  starting_balance_base: 'bigint',
  amount_total_base: 'bigint',
  settlement_type: 'text',
  transactions_sent: 'bigint',
  amount_sent_base: 'bigint',
  transactions_received: 'bigint',
  amount_received_base: 'bigint',
  processing_fee_total_base: 'bigint',
  processing_fee_send_base: 'bigint',
  processing_fee_receive_base: 'bigint',
  has_payment_activity: 'bool',
  standard_send_count: 'bigint',
  standard_send_volume_base: 'bigint',
  standard_receive_count: 'bigint',
  standard_receive_volume_base: 'bigint',
  treasury_send_count: 'bigint',
  treasury_send_volume_base: 'bigint',
  treasury_receive_count: 'bigint',
  treasury_receive_volume_base: 'bigint',
  volume_fee_base: 'bigint',
  interest_fee_base: 'bigint',
  payout_holdback_base: 'bigint',
  flags: 'text[]',
} as const satisfies ColumnMap<BillLineItemRow>;

export const BILL_SUMMARY_COLUMNS = {
  organization_id: 'id',
  line_of_credit_id: 'id',
  bill_total_count: 'bigint',
  listed_count: 'int',
  total_due_base: 'json',
  flags: 'text[]',
  raw: 'json',
} as const satisfies ColumnMap<BillSummaryRow>;

export const BILLS: TableSpec<BillRow> = { table: 'bills', columns: BILL_COLUMNS, key: ['organization_id', 'bill_id'], version: 'updated_at', tracksRuns: true, hashed: false };
export const BILL_LINE_ITEMS: TableSpec<BillLineItemRow> = { table: 'bill_line_items', columns: BILL_LINE_ITEM_COLUMNS, key: ['organization_id', 'bill_id', 'position'], tracksRuns: false, hashed: false };
export const BILL_HISTORY = { table: 'bill_history', fields: BILL_HISTORY_FIELDS, versionField: 'updated_at' } as const;
