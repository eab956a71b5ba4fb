/**
 * What reconciliation produces: findings, the fee rollup, balance roll-forwards, the summary
 * comparison and control totals. Sinks and the store consume these; field names are column names.
 * Amounts are bigint base units; `null` = unknown.
 */

export type Severity = 'error' | 'warning' | 'info';

/** What a finding is about. */
export type SubjectKind = 'payment' | 'ledger_entry' | 'wallet' | 'summary_bucket' | 'environment' | 'run';

/** One exception row (contracts.md `exceptions.csv`). */
export interface Finding {
  check_id: string;
  severity: Severity;
  subject_kind: SubjectKind;
  subject_id: string;
  wallet_id: string | null;
  currency: string | null;
  /** the figures compared, as exact decimal strings of base units (or counts) */
  expected: string | null;
  actual: string | null;
  difference: string | null;
  message: string;
}

/** A check's outcome for the Overview sheet and the manifest. */
export interface CheckResult {
  check_id: string;
  description: string;
  /** the severity its findings carry */
  severity: Severity;
  findings: number;
  passed: boolean;
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
  /** the wallet's API balance `total`, compared only when the window reaches the present */
  api_balance_base: bigint | null;
  /** closing − api balance, when compared */
  difference_base: bigint | null;
}

/** summary-check.csv: one summary bucket, API count vs count of listed payments. */
export interface SummaryCheckRow {
  scope: 'environment' | 'line_of_credit' | 'wallet';
  scope_id: string;
  environment_id: string;
  direction: string | null;
  status: string | null;
  currency: string | null;
  kind: string | null;
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
  /** hash total: sha256 over the sorted ids, catches a substituted record with equal count and sum */
  id_hash: string;
}

export type ControlTotals = Record<string, CurrencyControlTotals>;
