/**
 * What reconciliation produces: findings, the fee rollup, balance roll-forwards, the summary
 * comparison and control totals. Sinks and the store consume these; field names are column names.
 * Amounts are bigint base units; `null` = unknown.
 */
import { col, nullable, type RowOf } from './columns.js';
import type { PaymentRow, SummaryBucketRow, UtcInstant } from './rows.js';

/** fee-rates.csv: one period of one processing-fee rate of one wallet and direction. */
export interface FeeRateRow {
  wallet_id: string;
  environment_id: string;
  direction: string;
  rate_bps: number;
  /** created_at of the first payment seen at this rate; null = unknown (a rate known from the wallet policy alone) */
  from: UtcInstant | null;
  /** created_at of the first payment at the next rate; null = still in force at the last payment seen (or now, for the policy) */
  to: UtcInstant | null;
  payments: number;
  /** null for a rate known from the wallet policy alone */
  first_payment_id: string | null;
  last_payment_id: string | null;
  /** where the rate comes from: `payments: …`, `payments+policy: …` or `policy: …` */
  evidence: string;
}

export type Severity = 'error' | 'warning' | 'info';

/** What a finding is about. */
export type SubjectKind = 'payment' | 'ledger_entry' | 'wallet' | 'summary_bucket' | 'environment' | 'run' | 'bill' | 'bill_line_item' | 'check';

/** One exception row (docs/contracts.md#required-columns, `exceptions.csv`), stored per run in `findings`. */
export const FINDING_COLUMNS = {
  check_id: col.text(),
  severity: col.text<Severity>(),
  subject_kind: col.text<SubjectKind>(),
  subject_id: col.text(),
  wallet_id: nullable(col.id()),
  currency: nullable(col.text()),
  /** the figures compared, as exact decimal strings of base units (or counts) */
  expected: nullable(col.text()),
  actual: nullable(col.text()),
  difference: nullable(col.text()),
  message: col.text(),
} as const;

export type Finding = RowOf<typeof FINDING_COLUMNS>;

/** passed, failed (it found something: its severity says how much that matters) or not run (with the reason): reconcile/check-outcome.ts */
export type CheckOutcome = 'passed' | 'failed' | 'not_run';

/** A check's result for the Overview sheet and the manifest (built by reconcile/check-outcome.ts `checkResult`). */
export interface CheckResult {
  check_id: string;
  description: string;
  /** the severity its findings carry */
  severity: Severity;
  findings: number;
  /** the outcome is `passed`: it ran and found nothing (never true for a check that did not run) */
  passed: boolean;
  /** how many subjects (payments, entries, buckets, balances) the check looked at */
  evaluated?: number;
  /** why the check could not run (e.g. no summaries were pulled for this window); null when it ran */
  skipped_reason?: string | null;
}

/** fees.csv: environment × wallet × currency × kind × category, completed payments only. */
export interface FeeRow {
  environment_id: string;
  wallet_id: string;
  currency: string;
  unit: string;
  kind: string;
  category: string;
  direction: string;
  payments: number;
  principal_base: bigint;
  network_fee_base: bigint;
  processing_fee_base: bigint;
  total_base: bigint;
  /** how many of `payments` had their processing fee from each source */
  settled_count: number;
  terms_count: number;
  none_count: number;
  /** payments whose fees are unknown (excluded from the sums above, listed as findings) */
  unknown_fee_count: number;
}

/** `direct`: closing vs the API balance; `bridge`: closing + movements since = API balance now; `not_checked` */
export type BalanceCheck = 'direct' | 'bridge' | 'not_checked';

/** balances.csv: wallet × currency roll-forward over the window. */
export interface BalanceRow {
  wallet_id: string;
  environment_id: string;
  currency: string;
  unit: string;
  opening_base: bigint;
  credits_base: bigint;
  debits_base: bigint;
  closing_base: bigint;
  entries: number;
  /**
   * the wallet's API balance `total`, shown only when `balance_check` is `direct` (the balance was
   * read inside the window): then `difference_base` = closing − api balance (rollforward.ts)
   */
  api_balance_base: bigint | null;
  /** closing − api_balance_base, when `direct` */
  difference_base: bigint | null;
  /** the ledger sum at the API balance's effective_time (extension) */
  ledger_at_api_time_base?: bigint | null;
  /** the API balance's effective_time (extension) */
  api_balance_time?: UtcInstant | null;
  /** how the closing balance was checked against the service (extension; rollforward.ts) */
  balance_check?: BalanceCheck;
  /** bridge: net ledger movements from the window end up to the API reading */
  movements_since_base?: bigint | null;
  /** bridge: the API balance at its effective_time (today's balance for a past period) */
  api_balance_now_base?: bigint | null;
  /** bridge: closing + movements_since − api_balance_now */
  bridge_difference_base?: bigint | null;
  /** why a balance was not checked, or what the bridge spans */
  balance_check_note?: string | null;
  /** entries up to the window's end whose amount or effect is unknown: while > 0 the roll-forward is not proven */
  unknown_entries?: number;
}

/** summary-check.csv: one summary bucket, API count vs count of listed payments. */
export interface SummaryCheckRow extends Pick<SummaryBucketRow, 'scope' | 'scope_id' | 'environment_id' | 'direction' | 'status' | 'currency' | 'kind'> {
  /** null when the service's count was not available */
  api_count: bigint | null;
  computed_count: bigint;
  difference: bigint;
  ok: boolean;
}

/** Per-currency control totals (manifest.json `control_totals`, Overview sheet). */
export interface CurrencyControlTotals {
  payments: number;
  completed_payments: number;
  principal_base: bigint;
  network_fee_base: bigint;
  processing_fee_base: bigint;
  total_base: bigint;
  ledger_entries: number;
  ledger_credits_base: bigint;
  ledger_debits_base: bigint;
  /**
   * hash total over the payment ids: the sum of SHA-256(id) modulo 2^256, as 64 hex digits. Order
   * independent (so it streams in constant memory) and catches a substituted record with equal
   * count and sum. The amount sums above are over `completed` payments, each column summing its
   * non-null values; counts are over all payments of the currency created in the window.
   */
  id_hash: string;
  // --- extensions
  failed_payments?: number;
  open_payments?: number;
  /** completed payments with an unknown principal or fee (left out of the sums of those columns) */
  unknown_fee_payments?: number;
  /** the same hash total over the window's ledger entries, each id spelled `<entry_type>:<entry_id>` */
  ledger_id_hash?: string;
}

export type ControlTotals = Record<string, CurrencyControlTotals>;

/** open-items.csv: a payment created in the window that is not terminal (status_class open or unknown). */
export interface OpenItemRow
  extends Pick<PaymentRow, 'payment_id' | 'environment_id' | 'wallet_id' | 'direction' | 'kind' | 'category' | 'status' | 'status_class' | 'created_at' | 'updated_at' | 'currency' | 'unit' | 'principal_base' | 'total_base'> {
  /** whole seconds from created_at to the run's `now` */
  age_seconds: number;
}

/**
 * bills.csv: one billed figure of one bill line item beside the figure recomputed from the snapshot
 * (bill-checks.ts). `computed` null = not recomputed (period outside the pulled data, an unknown
 * amount among its payments, or a figure the invoice does not carry).
 */
export interface BillCheckRow {
  bill_id: string;
  line_of_credit_id: string;
  period_length: string;
  start_time: UtcInstant;
  end_time: UtcInstant;
  bill_status: string;
  wallet_id: string;
  currency: string;
  unit: string;
  /** e.g. amount_sent, processing_fee_send, standard_send_count */
  figure: string;
  billed: bigint | null;
  computed: bigint | null;
  /** billed − computed, when both are known */
  difference: bigint | null;
  /** ok | differs | not_checked | not_billed | no_line_item */
  status: string;
  /** the payments behind the figure: completed sends / receives / all of the wallet created in the period */
  payments: number | null;
}

/** What Reconciler.finish() returns (src/reconcile/reconciler.ts). */
export interface ReconcileResult {
  /** sorted by check_id, wallet_id, subject_kind, subject_id, currency, message */
  findings: Finding[];
  /** one per catalogue check, in catalogue order */
  checks: CheckResult[];
  fees: FeeRow[];
  balances: BalanceRow[];
  summaryChecks: SummaryCheckRow[];
  controlTotals: ControlTotals;
  openItems: OpenItemRow[];
  /** one row per billed figure of every bill line item overlapping the window (empty when no bills were pulled) */
  bills: BillCheckRow[];
  /** the processing-fee rate periods per wallet and direction (fee-rate-history.ts) */
  feeRates: FeeRateRow[];
}
