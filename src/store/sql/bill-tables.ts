import { pickColumns } from '../../model/columns.js';
import { BILL_COLUMNS, BILL_LINE_ITEM_COLUMNS, type BillLineItemRow, type BillRow } from '../../model/rows.js';
import { HISTORY_EVENT_COLUMNS, type TableSpec } from './tables.js';

/** The bill tables as stored: the bill rows' declarations in src/model/ (migrations/006_bills.sql declares the same columns). */

/** A change of these is a bill-history event; anything else updates the current row silently. */
export const BILL_HISTORY_FIELDS = ['status', 'settlement_type', 'amt_due_base', 'amt_paid_base', 'service_fee_base', 'settlement_fee_base'] as const satisfies readonly (keyof BillRow)[];

/** bill_history's columns after its identity and organization_id (as PAYMENT_HISTORY_COLUMNS in tables.ts). */
export const BILL_HISTORY_COLUMNS = {
  ...pickColumns(BILL_COLUMNS, ['bill_id']),
  ...HISTORY_EVENT_COLUMNS,
  ...pickColumns(BILL_COLUMNS, ['updated_at', ...BILL_HISTORY_FIELDS]),
} as const;

export const BILLS: TableSpec<BillRow> = { table: 'bills', columns: BILL_COLUMNS, key: ['organization_id', 'bill_id'], version: 'updated_at', tracksRuns: true, hashed: false };
export const BILL_LINE_ITEMS: TableSpec<BillLineItemRow> = { table: 'bill_line_items', columns: BILL_LINE_ITEM_COLUMNS, key: ['organization_id', 'bill_id', 'position'], tracksRuns: false, hashed: false };
export const BILL_HISTORY = { table: 'bill_history', fields: BILL_HISTORY_FIELDS, versionField: 'updated_at' } as const;
