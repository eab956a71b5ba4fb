/**
 * bills.csv / sheet "Bills": every billed figure of every bill line item overlapping the window,
 * beside the figure recomputed from the snapshot (docs/reconciliation.md "Bill checks").
 */
import type { BillCheckRow } from '../../model/results.js';
import { baseAmount, fieldColumns, instant, type TableSpec } from '../../model/column-spec.js';

const field = fieldColumns<BillCheckRow>();
/** A count's "currency" is none: the base columns then hold the count itself. */
const cur = (r: BillCheckRow): string | null => (r.unit === 'count' ? null : r.currency);

export const BILLS_TABLE: TableSpec<BillCheckRow> = {
  id: 'bills',
  file: 'bills.csv',
  sheet: 'Bills',
  rowIs: 'bill × wallet × billed figure: the service’s figure vs ours',
  // printed one page across (docs/reports.md#printing-8-pt-or-more-on-a4-and-letter): which bill and wallet, the service's figure, ours and whether they agree
  printColumns: ['period_start', 'wallet_name', 'figure', 'billed_base', 'computed_base', 'difference_base', 'status'],
  columns: [
    field.id('bill_id', 'bill UUID'),
    field.id('line_of_credit_id', 'line of credit UUID'),
    field.code('period_length', 'monthly, weekly, … (the bill’s reconciliation frequency)'),
    ...instant<BillCheckRow>('period_start', 'start_time of the billed period (included)', (r) => r.start_time),
    ...instant<BillCheckRow>('period_end', 'end_time of the billed period (excluded)', (r) => r.end_time),
    field.code('bill_status', 'payment_due, queued, processing, paid, void, failed'),
    field.id('wallet_id', 'wallet UUID of the line item'),
    field.code('currency', 'currency of the bill'),
    field.code('unit', 'msats, cents — or count for the transaction and activity counts'),
    field.code('figure', 'the billed figure: starting_balance, amount_sent, amount_received, transactions_sent/received, processing_fee_send/receive, <category>_<direction>_count/_volume, line_item'),
    baseAmount<BillCheckRow>('billed', 'the figure on the bill', (r) => r.billed, cur),
    baseAmount<BillCheckRow>('computed', 'the figure recomputed from the snapshot (empty = not checked)', (r) => r.computed, cur),
    baseAmount<BillCheckRow>('difference', 'billed − computed', (r) => r.difference, cur),
    field.code('status', 'ok, differs, not_checked (period outside the window or an unknown amount), not_billed, no_line_item'),
    field.count('payments', 'the payments behind the figure: completed sends (send figures), receives (receive figures) or all payments of the wallet created in the period'),
  ],
};
