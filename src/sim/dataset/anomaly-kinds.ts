/**
 * Reconciliation anomalies the generator can plant (docs/simulator.md "Planted anomalies").
 * Each planted instance is reported by `Dataset.anomalies` with the ids it touched, so a
 * reconciliation test can assert that every one is found.
 */
export const ANOMALY_KINDS = [
  /** a completed payment with no ledger entry at all */
  'missing_ledger_entry',
  /** a captured (send) amount that differs from principal + network fee + processing fee */
  'capture_amount_mismatch',
  /** a ledger entry whose payment_id belongs to no payment */
  'orphan_ledger_entry',
  /** one summary bucket (and the totals above it) counts one payment too many */
  'summary_count_off_by_one',
  /** a completed send whose network fee exceeds its max_fee */
  'network_fee_above_max',
  /** a settled processing fee that is not round(principal × bps / 10,000) */
  'processing_fee_mismatch',
  /** a wallet whose reported balance differs from the sum of its ledger */
  'balance_mismatch',
  /** a payment whose currency is not its wallet's currency */
  'currency_mismatch',
  /** payments whose data.amount.amount is "1e3", "1,000", "", 1.5 or a negative number */
  'malformed_amount',
  /** a completed send that reports no fee at all (no data.fees, fee_msats or payment_breakdown): unknown, not 0 */
  'missing_fee',
  /** a bill line item whose processing_fees.send (and total) is above what its payments settled */
  'bill_processing_fee_overbilled',
  /** a bill without the line item of one of its line of credit's wallets, which had activity in the period */
  'bill_missing_line_item',
  /** a bill line item whose total_transactions_sent counts one payment too many */
  'bill_count_off_by_one',
] as const;

/** The anomalies planted on bills (the rest are planted on payments, the ledger, balances and summaries). */
export const BILL_ANOMALY_KINDS = ['bill_processing_fee_overbilled', 'bill_missing_line_item', 'bill_count_off_by_one'] as const satisfies readonly AnomalyKind[];

export type AnomalyKind = (typeof ANOMALY_KINDS)[number];

export interface PlantedAnomaly {
  kind: AnomalyKind;
  /** what a reconciliation finding would be about */
  subjectKind: 'payment' | 'ledger_entry' | 'wallet' | 'summary_bucket' | 'bill_line_item';
  /** payment id, ledger entry id (hold_id/credit_id), wallet id, `wallet_id|direction|status|currency|kind`, or `bill_id:wallet_id` */
  subjectId: string;
  walletId: string;
  environmentId: string;
  paymentId: string | null;
  /** human-readable: what was changed, with the figures */
  detail: string;
}
