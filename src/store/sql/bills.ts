import { BILL_SUMMARY_COLUMNS, type BillRecord, type BillSummaryRow } from '../../model/rows.js';
import type { WriteStats } from '../../model/ports.js';
import type { Queryable } from '../db/db.js';
import type { StoreSchema } from '../db/schema.js';
import { escapeText } from '../encoding/text-escape.js';
import { BILL_HISTORY, BILL_LINE_ITEMS, BILLS } from './bill-tables.js';
import { insertRows } from './insert-rows.js';
import { loadRows } from './load-rows.js';

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
