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
 *
 * Each stored row is declared once as its columns (`*_COLUMNS`: field, storage kind, nullability;
 * columns.ts) and its type is derived from that declaration, so the store's column lists cannot
 * drift from the row. The declaration's order is the stored column order (and the order of the
 * row hash's fields: never reorder a hashed table's columns).
 */
import { col, nullable, type RowOf } from './columns.js';

import type { UtcInstant } from './instant.js';

/** `YYYY-MM-DDTHH:MM:SS.ffffffZ` — see file comment. */
export type { UtcInstant } from './instant.js';

/** The three sources a processing fee can come from (docs/contracts.md#required-columns, `processing_fee_source`). */
export type ProcessingFeeSource = 'settled' | 'terms' | 'none';

/**
 * Where a payment stands for accounting. `open` = not terminal yet (sending, approved as a
 * non-final state, generating, receiving); `failed` covers failed and expired; `unknown` = a
 * status value the service added that we do not know (kept verbatim in `status`).
 */
export type StatusClass = 'completed' | 'failed' | 'open' | 'unknown';

export const PAYMENT_COLUMNS = {
  payment_id: col.id(),
  organization_id: col.id(),
  environment_id: col.id(),
  wallet_id: col.id(),
  /** `send` | `receive` (or an unknown value, flagged) */
  direction: col.text(),
  /** the wire `type`: bolt11 | onchain | bip21 | taprootasset | usdbatch */
  kind: col.text(),
  /** standard | treasury (absent on old records → `standard`, flagged) */
  category: col.text(),
  /** sends: direct | swap; receives: null */
  route: nullable(col.text()),
  status: col.text(),
  status_class: col.text<StatusClass>(),
  created_at: col.instant(),
  updated_at: col.instant(),
  /** the wallet-side currency of the amounts below */
  currency: col.text(),
  /** msats | cents | base units */
  unit: col.text(),

  // --- the fee breakdown (all in `currency` base units) -------------------------------------
  principal_base: nullable(col.bigint()),
  network_fee_base: nullable(col.bigint()),
  processing_fee_base: nullable(col.bigint()),
  processing_fee_source: col.text<ProcessingFeeSource>(),
  /** basis points of the terms (100 = 1 %), when known */
  processing_fee_bps: nullable(col.number()),
  processing_fee_terms_base: nullable(col.bigint()),
  processing_fee_settled_base: nullable(col.bigint()),
  /** settled − terms, when both are known */
  processing_fee_diff_base: nullable(col.bigint()),
  /** what the wallet was debited (send: principal + network + processing) or credited (receive) */
  total_base: nullable(col.bigint()),
  /** network/provider fee ceiling of a send */
  max_fee_base: nullable(col.bigint()),
  /** data.fees: total actual fee the service reports (network + processing on sends) */
  reported_fees_base: nullable(col.bigint()),

  // --- cross-currency (USD wallets paying or receiving over BTC rails) ----------------------
  /** `<coefficient>e<scale>` base units of `quote_to` per 1 BTC, verbatim */
  quote_rate: nullable(col.text()),
  quote_from: nullable(col.text()),
  quote_to: nullable(col.text()),
  /** the BTC-rail amounts (msats) from the deprecated msat/sat fields or the exchanges */
  rail_currency: nullable(col.text()),
  rail_amount_base: nullable(col.bigint()),
  rail_fee_base: nullable(col.bigint()),

  // --- references (joins and audit trail) ----------------------------------------------------
  /** receipts'/outflows'/exchanges' ledger_id: joins to ledger hold_id / credit_id */
  ledger_ids: col.textList(),
  tx_ids: col.textList(),
  payment_hashes: col.textList(),
  /** swap steps in the order reported */
  swap_steps: col.textList(),
  offset_payment_ids: col.textList(),

  error_type: nullable(col.text()),
  error_code: nullable(col.text()),
  error_detail: nullable(col.text()),

  // --- requested amount and quote (cross-currency) -------------------------------------------
  /** receives: `requested_amount` in `currency` base units */
  requested_amount_base: nullable(col.bigint()),
  /** the quote id of the payment's exchanges (market quotes only; peer quotes have none) */
  quote_id: nullable(col.id()),
  /** rail_amount_base converted at quote_rate into `currency` (half-even), to set beside principal_base */
  quote_principal_base: nullable(col.bigint()),

  /** memo / label / description: free text from the payer or payee (hostile until escaped) */
  description: nullable(col.text()),
  metadata: nullable(col.json<Record<string, string>>()),
  flags: col.textList(),
  /**
   * the wire object exactly as received (bigints intact); stored as its JSON text, which the server
   * does not parse on every COPY (docs/database.md, "Raw payloads"; the view `payment_raw` casts it)
   */
  raw: nullable(col.jsonText<unknown>()),
} as const;

export type PaymentRow = RowOf<typeof PAYMENT_COLUMNS>;

/** Which way a ledger event moves the wallet's total balance. Holds and releases only touch `available`. */
export type LedgerEffect = 'credit' | 'debit' | 'memo';

export const LEDGER_COLUMNS = {
  /** the event's own id: credit_id | hold_id | deposit_id | withdraw_id */
  entry_id: col.id(),
  /** credited | captured | held | released | deposited | withdrawn (or unknown, flagged) */
  entry_type: col.id(),
  wallet_id: col.id(),
  environment_id: col.id(),
  organization_id: col.id(),
  payment_id: nullable(col.id()),
  effective_time: col.instant(),
  currency: col.text(),
  unit: col.text(),
  /** the amount as the ledger states it (negative only when the API says `negative: true`); null for `released` */
  amount_base: nullable(col.bigint()),
  effect: col.text<LedgerEffect>(),
  /** signed effect on the total balance: +credit, −debit, 0 for memo entries */
  balance_effect_base: col.bigint(),
  /** from the event's payment_breakdown when present */
  principal_base: nullable(col.bigint()),
  network_fee_base: nullable(col.bigint()),
  processing_fee_base: nullable(col.bigint()),
  processing_fee_bps: nullable(col.number()),
  flags: col.textList(),
  raw: nullable(col.json<unknown>()),
} as const;

export type LedgerRow = RowOf<typeof LEDGER_COLUMNS>;

/** A wallet's balance in one currency (stored one row per currency, keyed by it). */
export const WALLET_BALANCE_COLUMNS = {
  currency: col.id(),
  unit: col.text(),
  available_base: col.bigint(),
  total_base: col.bigint(),
  effective_time: col.instant(),
} as const;

export type WalletBalanceRow = RowOf<typeof WALLET_BALANCE_COLUMNS>;

/** A wallet's own columns; its balances live in their own table. */
export const WALLET_COLUMNS = {
  wallet_id: col.id(),
  organization_id: col.id(),
  environment_id: col.id(),
  name: col.text(),
  active: col.bool(),
  network: col.text(),
  line_of_credit_id: nullable(col.id()),
  limit_base: nullable(col.bigint()),
  created_at: col.instant(),
  updated_at: col.instant(),
  deleted_at: nullable(col.instant()),
  metadata: nullable(col.json<Record<string, string>>()),
  /**
   * the processing-fee policy's current rates (GET …/policies, normalize/wallet-policy.ts); null =
   * none (a fee-free wallet, no policies) or not read. The service keeps no history of a policy.
   */
  fee_policy: nullable(col.json<WalletFeePolicy>()),
  flags: col.textList(),
  raw: nullable(col.json<unknown>()),
} as const;

/** A wallet's processing-fee policy as the service shows it now (send and receive basis points). */
export interface WalletFeePolicy {
  send_bps: number;
  receive_bps: number;
  updated_at: UtcInstant | null;
}

export interface WalletRow extends RowOf<typeof WALLET_COLUMNS> {
  balances: WalletBalanceRow[];
}

export const ASSET_COLUMNS = {
  /** `asset:<hex>` lowercase, the currency spelling used on amounts */
  currency: col.id(),
  asset_id: col.text(),
  name: col.text(),
  network: col.text(),
  decimal_display: col.int(),
  /** quirks met while normalizing */
  flags: col.textList(),
} as const;

export type AssetRow = RowOf<typeof ASSET_COLUMNS>;

/** Where a summary count comes from. */
export type SummaryScope = 'environment' | 'line_of_credit' | 'wallet';

/** One bucket of a payment summary endpoint (counts, not money), or a scope's total (bucket fields null). */
export const SUMMARY_BUCKET_COLUMNS = {
  scope: col.text<SummaryScope>(),
  scope_id: col.id(),
  environment_id: col.id(),
  /** null on a scope-total row */
  direction: nullable(col.text()),
  status: nullable(col.text()),
  currency: nullable(col.text()),
  kind: nullable(col.text()),
  api_count: col.bigint(),
  oldest_created_at: nullable(col.instant()),
  newest_created_at: nullable(col.instant()),
  /** quirks met while normalizing, e.g. `malformed_value:total_count` (then api_count is 0 and not to be trusted) */
  flags: col.textList(),
} as const;

export type SummaryBucketRow = RowOf<typeof SUMMARY_BUCKET_COLUMNS>;

/**
 * One bill of the service (OpenAPI `BillRead`): a line of credit's invoice for [start_time, end_time).
 * Amounts in the bill's currency base units; `amt_due_base` is the unsigned magnitude whose direction
 * `settlement_type` gives (Collection = the customer owes).
 */
export const BILL_COLUMNS = {
  bill_id: col.id(),
  organization_id: col.id(),
  line_of_credit_id: col.id(),
  start_time: col.instant(),
  end_time: col.instant(),
  period_length: col.text(),
  status: col.text(),
  settlement_type: col.text(),
  /** the currency of amt_due (every line item of a line of credit shares it) */
  currency: col.text(),
  unit: col.text(),
  amt_due_base: nullable(col.bigint()),
  amt_paid_base: nullable(col.bigint()),
  service_fee_base: nullable(col.bigint()),
  settlement_fee_base: nullable(col.bigint()),
  wallet_ids: col.textList(),
  created_at: col.instant(),
  updated_at: col.instant(),
  due_date: nullable(col.instant()),
  flags: col.textList(),
  raw: nullable(col.json<unknown>()),
} as const;

export type BillRow = RowOf<typeof BILL_COLUMNS>;

/** One line item of a bill: a wallet's billed activity. `null` = absent on the wire (historical invoices) or unreadable. */
export const BILL_LINE_ITEM_COLUMNS = {
  organization_id: col.id(),
  bill_id: col.id(),
  /** index in the invoice's line_items */
  position: col.int(),
  wallet_id: col.id(),
  currency: col.text(),
  unit: col.text(),
  /** signed (SignedAmount.negative applied) */
  starting_balance_base: nullable(col.bigint()),
  amount_total_base: nullable(col.bigint()),
  settlement_type: col.text(),
  transactions_sent: nullable(col.bigint()),
  amount_sent_base: nullable(col.bigint()),
  transactions_received: nullable(col.bigint()),
  amount_received_base: nullable(col.bigint()),
  processing_fee_total_base: nullable(col.bigint()),
  processing_fee_send_base: nullable(col.bigint()),
  processing_fee_receive_base: nullable(col.bigint()),
  /** payment_activity present on the invoice (absent on historical ones) */
  has_payment_activity: col.bool(),
  standard_send_count: nullable(col.bigint()),
  standard_send_volume_base: nullable(col.bigint()),
  standard_receive_count: nullable(col.bigint()),
  standard_receive_volume_base: nullable(col.bigint()),
  treasury_send_count: nullable(col.bigint()),
  treasury_send_volume_base: nullable(col.bigint()),
  treasury_receive_count: nullable(col.bigint()),
  treasury_receive_volume_base: nullable(col.bigint()),
  /** flat volume fee, or the directional total */
  volume_fee_base: nullable(col.bigint()),
  interest_fee_base: nullable(col.bigint()),
  payout_holdback_base: nullable(col.bigint()),
  flags: col.textList(),
} as const;

export type BillLineItemRow = RowOf<typeof BILL_LINE_ITEM_COLUMNS>;

/** A bill with its line items, as the bill checks read it. */
export interface BillRecord {
  bill: BillRow;
  line_items: BillLineItemRow[];
}

/** OpenAPI `BillSummary` for one line of credit: what the bill list must add up to. */
export const BILL_SUMMARY_COLUMNS = {
  organization_id: col.id(),
  line_of_credit_id: col.id(),
  bill_total_count: nullable(col.bigint()),
  /** how many distinct bills of the line of credit the list returned in the same run (null: not known) */
  listed_count: nullable(col.int()),
  /** currency → total_due_base_units */
  total_due_base: col.json<Record<string, string>>(),
  flags: col.textList(),
  raw: nullable(col.json<unknown>()),
} as const;

export type BillSummaryRow = RowOf<typeof BILL_SUMMARY_COLUMNS>;
