import { BILL_COLUMNS, BILL_LINE_ITEM_COLUMNS, BILL_SUMMARY_COLUMNS, type BillLineItemRow, type BillRecord, type BillRow, type BillSummaryRow } from '../../model/rows.js';
import type { Window } from '../../model/window.js';
import type { WriteStats } from '../../model/ports.js';
import type { Queryable } from '../db/db.js';
import type { StoreSchema } from '../db/schema.js';
import { decodeRow, selectList } from '../encoding/columns.js';
import { escapeText } from '../encoding/text-escape.js';
import { BILL_HISTORY, BILL_LINE_ITEMS, BILLS } from './bill-tables.js';
import { insertRows } from './insert-rows.js';
import { loadRows } from './load-rows.js';

/** Bills with their line items, and the bill summaries of lines of credit: written and read. */

/**
 * A page of bills merged with their line items (a bill-history row per change, bill-tables.ts);
 * a line item the bill no longer lists is no longer part of it. The stats are the bills'.
 */
export async function mergeBills(tx: Queryable, schema: StoreSchema, records: readonly BillRecord[], runId: string): Promise<WriteStats> {
  const stats = await loadRows(tx, schema, BILLS, records.map((r) => r.bill), { runId: escapeText(runId), history: BILL_HISTORY });
  await loadRows(tx, schema, BILL_LINE_ITEMS, records.flatMap((r) => r.line_items), { runId: null });
  await tx.query(
    `DELETE FROM ${schema.table('bill_line_items')} i USING unnest($2::text[], $3::int[]) AS u(bill_id, n)
     WHERE i.organization_id = $1 AND i.bill_id = u.bill_id AND i.position >= u.n`,
    [escapeText(records[0]?.bill.organization_id ?? ''), records.map((r) => escapeText(r.bill.bill_id)), records.map((r) => String(r.line_items.length))],
  );
  return stats;
}

/** A line of credit's bill summary in a run: a rewrite within the run replaces it. */
export async function replaceBillSummary(tx: Queryable, schema: StoreSchema, summaryRunId: string, row: BillSummaryRow): Promise<void> {
  await tx.query(`DELETE FROM ${schema.table('bill_summaries')} WHERE run_id = $1 AND line_of_credit_id = $2`, [escapeText(summaryRunId), escapeText(row.line_of_credit_id)]);
  await insertRows(tx, schema.table('bill_summaries'), BILL_SUMMARY_COLUMNS, [row], { run_id: escapeText(summaryRunId) });
}

/** The bills that overlap the window, each with its line items in order. */
export async function readBills(db: Queryable, schema: StoreSchema, organizationId: string, window: Window): Promise<BillRecord[]> {
  const { rows: billRecords } = await db.query(
    `SELECT ${selectList('b', BILL_COLUMNS)} FROM ${schema.table('bills')} b
     WHERE b.organization_id = $1 AND b.start_time < $3::timestamptz AND b.end_time > $2::timestamptz
     ORDER BY b.line_of_credit_id, b.start_time, b.bill_id`,
    [escapeText(organizationId), window.from, window.to],
  );
  const bills = billRecords.map((record) => decodeRow<BillRow>(BILL_COLUMNS, record));
  if (bills.length === 0) return [];
  const { rows: itemRecords } = await db.query(
    `SELECT ${selectList('i', BILL_LINE_ITEM_COLUMNS)} FROM ${schema.table('bill_line_items')} i
     WHERE i.organization_id = $1 AND i.bill_id = ANY($2::text[]) ORDER BY i.bill_id, i.position`,
    [escapeText(organizationId), bills.map((b) => escapeText(b.bill_id))],
  );
  const items = new Map<string, BillLineItemRow[]>();
  for (const record of itemRecords) {
    const item = decodeRow<BillLineItemRow>(BILL_LINE_ITEM_COLUMNS, record);
    items.set(item.bill_id, [...(items.get(item.bill_id) ?? []), item]);
  }
  return bills.map((bill) => ({ bill, line_items: items.get(bill.bill_id) ?? [] }));
}

/** Each line of credit's bill summary from the newest run of exactly this window. */
export async function newestBillSummaries(db: Queryable, schema: StoreSchema, organizationId: string, window: Window): Promise<BillSummaryRow[]> {
  const { rows } = await db.query(
    `SELECT DISTINCT ON (s.line_of_credit_id) ${selectList('s', BILL_SUMMARY_COLUMNS)}
     FROM ${schema.table('bill_summaries')} s JOIN ${schema.table('runs')} r USING (run_id)
     WHERE r.organization_id = $1 AND s.organization_id = $1 AND r.window_from = $2::timestamptz AND r.window_to = $3::timestamptz
     ORDER BY s.line_of_credit_id, r.started_at DESC, s.run_id DESC`,
    [escapeText(organizationId), window.from, window.to],
  );
  return rows.map((record) => decodeRow<BillSummaryRow>(BILL_SUMMARY_COLUMNS, record));
}
