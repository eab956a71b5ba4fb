/**
 * Normalized rows: what normalize/ produces and what reconcile/, sinks/ and store/ consume.
 * Field names are the report/database column names (snake_case), so a sink maps them 1:1.
 *
 * Conventions (docs/design.md#boundaries):
 * - Amounts are integers in base units as `bigint` (msats for btc, cents for usd, base units for
 *   assets). `null` means UNKNOWN — never read it as zero (docs/reliability.md#api-misbehaviour-api, API-17).
 * - Instants are `UtcInstant` strings: RFC 3339 in UTC with exactly six fraction digits
 *   (`2026-10-01T04:00:00.000000Z`). The service sends microseconds; a JS Date would drop them,
 *   and canonical strings sort lexicographically in time order.
 * - Currencies are lowercase (`btc`, `usd`, `asset:<hex>`); the raw spelling survives in `raw`.
 * - `flags` records every quirk met while normalizing (legacy field used, unknown enum value,
 *   unknown field, ...). A flag never stops the run; reconcile/ turns some of them into findings.
 */

/** `YYYY-MM-DDTHH:MM:SS.ffffffZ` — see file comment. */
export type UtcInstant = string;

/** The three sources a processing fee can come from (docs/contracts.md#required-columns, `processing_fee_source`). */
export type ProcessingFeeSource = 'settled' | 'terms' | 'none';

/**
 * Where a payment stands for accounting. `open` = not terminal yet (sending, approved as a
 * non-final state, generating, receiving); `failed` covers failed and expired; `unknown` = a
 * status value the service added that we do not know (kept verbatim in `status`).
 */
export type StatusClass = 'completed' | 'failed' | 'open' | 'unknown';

export interface PaymentRow {
  payment_id: string;
  organization_id: string;
  environment_id: string;
  wallet_id: string;
  /** `send` | `receive` (or an unknown value, flagged) */
  direction: string;
  /** the wire `type`: bolt11 | onchain | bip21 | taprootasset | usdbatch */
  kind: string;
  /** standard | treasury (absent on old records → `standard`, flagged) */
  category: string;
  /** sends: direct | swap; receives: null */
  route: string | null;
  status: string;
  status_class: StatusClass;
  created_at: UtcInstant;
  updated_at: UtcInstant;
  /** the wallet-side currency of the amounts below */
  currency: string;
  /** msats | cents | base units */
  unit: string;

  // --- the fee breakdown (all in `currency` base units) -------------------------------------
  principal_base: bigint | null;
  network_fee_base: bigint | null;
  processing_fee_base: bigint | null;
  processing_fee_source: ProcessingFeeSource;
  /** basis points of the terms (100 = 1 %), when known */
  processing_fee_bps: number | null;
  processing_fee_terms_base: bigint | null;
  processing_fee_settled_base: bigint | null;
  /** settled − terms, when both are known */
  processing_fee_diff_base: bigint | null;
  /** what the wallet was debited (send: principal + network + processing) or credited (receive) */
  total_base: bigint | null;
  /** network/provider fee ceiling of a send */
  max_fee_base: bigint | null;
  /** data.fees: total actual fee the service reports (network + processing on sends) */
  reported_fees_base: bigint | null;

  // --- cross-currency (USD wallets paying or receiving over BTC rails) ----------------------
  /** `<coefficient>e<scale>` base units of `quote_to` per 1 BTC, verbatim */
  quote_rate: string | null;
  quote_from: string | null;
  quote_to: string | null;
  /** the BTC-rail amounts (msats) from the deprecated msat/sat fields or the exchanges */
  rail_currency: string | null;
  rail_amount_base: bigint | null;
  rail_fee_base: bigint | null;

  // --- references (joins and audit trail) ----------------------------------------------------
  /** receipts'/outflows'/exchanges' ledger_id: joins to ledger hold_id / credit_id */
  ledger_ids: string[];
  tx_ids: string[];
  payment_hashes: string[];
  /** swap steps in the order reported */
  swap_steps: string[];
  offset_payment_ids: string[];

  error_type: string | null;
  error_code: string | null;
  error_detail: string | null;

  // --- requested amount and quote (cross-currency) -------------------------------------------
  /** receives: `requested_amount` in `currency` base units */
  requested_amount_base: bigint | null;
  /** the quote id of the payment's exchanges (market quotes only; peer quotes have none) */
  quote_id: string | null;
  /** rail_amount_base converted at quote_rate into `currency` (half-even), to set beside principal_base */
  quote_principal_base: bigint | null;

  /** memo / label / description: free text from the payer or payee (hostile until escaped) */
  description: string | null;
  metadata: Record<string, string> | null;
  flags: string[];
  /** the wire object exactly as received (bigints intact), for the snapshot's jsonb column */
  raw: unknown;
}

/** Which way a ledger event moves the wallet's total balance. Holds and releases only touch `available`. */
export type LedgerEffect = 'credit' | 'debit' | 'memo';

export interface LedgerRow {
  /** the event's own id: credit_id | hold_id | deposit_id | withdraw_id */
  entry_id: string;
  /** credited | captured | held | released | deposited | withdrawn (or unknown, flagged) */
  entry_type: string;
  wallet_id: string;
  environment_id: string;
  organization_id: string;
  payment_id: string | null;
  effective_time: UtcInstant;
  currency: string;
  unit: string;
  /** the amount as the ledger states it (negative only when the API says `negative: true`); null for `released` */
  amount_base: bigint | null;
  effect: LedgerEffect;
  /** signed effect on the total balance: +credit, −debit, 0 for memo entries */
  balance_effect_base: bigint;
  /** from the event's payment_breakdown when present */
  principal_base: bigint | null;
  network_fee_base: bigint | null;
  processing_fee_base: bigint | null;
  processing_fee_bps: number | null;
  flags: string[];
  raw: unknown;
}

export interface WalletBalanceRow {
  currency: string;
  unit: string;
  available_base: bigint;
  total_base: bigint;
  effective_time: UtcInstant;
}

export interface WalletRow {
  wallet_id: string;
  organization_id: string;
  environment_id: string;
  name: string;
  active: boolean;
  network: string;
  line_of_credit_id: string | null;
  limit_base: bigint | null;
  created_at: UtcInstant;
  updated_at: UtcInstant;
  deleted_at: UtcInstant | null;
  metadata: Record<string, string> | null;
  balances: WalletBalanceRow[];
  /**
   * the processing-fee policy's current rates (GET …/policies, normalize/wallet-policy.ts); null =
   * none (a fee-free wallet, no policies) or not read. The service keeps no history of a policy.
   */
  fee_policy?: { send_bps: number; receive_bps: number; updated_at: UtcInstant | null } | null;
  flags: string[];
  raw: unknown;
}

export interface AssetRow {
  /** `asset:<hex>` lowercase, the currency spelling used on amounts */
  currency: string;
  asset_id: string;
  name: string;
  network: string;
  decimal_display: number;
  /** quirks met while normalizing */
  flags: string[];
}

/** Where a summary count comes from. */
export type SummaryScope = 'environment' | 'line_of_credit' | 'wallet';

/** One bucket of a payment summary endpoint (counts, not money), or a scope's total (bucket fields null). */
export interface SummaryBucketRow {
  scope: SummaryScope;
  scope_id: string;
  environment_id: string;
  /** null on a scope-total row */
  direction: string | null;
  status: string | null;
  currency: string | null;
  kind: string | null;
  api_count: bigint;
  oldest_created_at: UtcInstant | null;
  newest_created_at: UtcInstant | null;
  /** quirks met while normalizing, e.g. `malformed_value:total_count` (then api_count is 0 and not to be trusted) */
  flags: string[];
}

/**
 * One bill of the service (OpenAPI `BillRead`): a line of credit's invoice for [start_time, end_time).
 * Amounts in the bill's currency base units; `amt_due_base` is the unsigned magnitude whose direction
 * `settlement_type` gives (Collection = the customer owes).
 */
export interface BillRow {
  bill_id: string;
  organization_id: string;
  line_of_credit_id: string;
  start_time: UtcInstant;
  end_time: UtcInstant;
  period_length: string;
  status: string;
  settlement_type: string;
  /** the currency of amt_due (every line item of a line of credit shares it) */
  currency: string;
  unit: string;
  amt_due_base: bigint | null;
  amt_paid_base: bigint | null;
  service_fee_base: bigint | null;
  settlement_fee_base: bigint | null;
  wallet_ids: string[];
  created_at: UtcInstant;
  updated_at: UtcInstant;
  due_date: UtcInstant | null;
  flags: string[];
  raw: unknown;
}

/** One line item of a bill: a wallet's billed activity. `null` = absent on the wire (historical invoices) or unreadable. */
export interface BillLineItemRow {
  organization_id: string;
  bill_id: string;
  /** index in the invoice's line_items */
  position: number;
  wallet_id: string;
  currency: string;
  unit: string;
  /** signed (SignedAmount.negative applied) */
  starting_balance_base: bigint | null;
  amount_total_base: bigint | null;
  settlement_type: string;
  transactions_sent: bigint | null;
  amount_sent_base: bigint | null;
  transactions_received: bigint | null;
  amount_received_base: bigint | null;
  processing_fee_total_base: bigint | null;
  processing_fee_send_base: bigint | null;
  processing_fee_receive_base: bigint | null;
  /** payment_activity present on the invoice (absent on historical ones) */
  has_payment_activity: boolean;
  standard_send_count: bigint | null;
  standard_send_volume_base: bigint | null;
  standard_receive_count: bigint | null;
  standard_receive_volume_base: bigint | null;
  treasury_send_count: bigint | null;
  treasury_send_volume_base: bigint | null;
  treasury_receive_count: bigint | null;
  treasury_receive_volume_base: bigint | null;
  /** flat volume fee, or the directional total */
  volume_fee_base: bigint | null;
  interest_fee_base: bigint | null;
  payout_holdback_base: bigint | null;
  flags: string[];
}

/** A bill with its line items, as the bill checks read it. */
export interface BillRecord {
  bill: BillRow;
  line_items: BillLineItemRow[];
}

/** OpenAPI `BillSummary` for one line of credit: what the bill list must add up to. */
export interface BillSummaryRow {
  organization_id: string;
  line_of_credit_id: string;
  bill_total_count: bigint | null;
  /** how many distinct bills of the line of credit the list returned in the same run (null: not known) */
  listed_count: number | null;
  /** currency → total_due_base_units */
  total_due_base: Record<string, string>;
  flags: string[];
  raw: unknown;
}
