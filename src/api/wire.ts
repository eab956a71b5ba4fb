/**
 * Wire types: the payments service's JSON exactly as it sends it (snake_case).
 *
 * Source of truth: spec/voltage-openapi.json (components.schemas.*), with the legacy
 * shapes of docs/service-facts.md that the document no longer lists (old ledger
 * events with `amount_msats`, uppercase `BTC`). test/unit/api/wire-vs-openapi.test.ts checks
 * these declarations against the OpenAPI document.
 *
 * These types never leave api/, extract/, normalize/ and sim/ (docs/design.md#boundaries).
 * They describe what a well-behaved server sends; normalize/ still treats every value
 * defensively, because the real service adds enum values and fields without notice.
 */

/**
 * An integer as it comes out of our lossless JSON parser (src/api/json.ts): a safe integer stays a
 * `number`; anything beyond 2^53 arrives as a `bigint`, never rounded.
 */
export type WireInt = number | bigint;

/** `btc`, `usd` or `asset:<66 hex>`; old records may say `BTC` (docs/service-facts.md#amounts-and-fees). */
export type WireCurrency = string;

/** OpenAPI `Amount` (oneOf btc/usd/asset). `unit` is `msats`, `cents` or `base units` (with a space). */
export interface WireAmount {
  currency: WireCurrency;
  amount: WireInt;
  unit?: 'msats' | 'cents' | 'base units' | string;
  negative?: boolean;
}

/** OpenAPI `SignedAmount`: an Amount whose `negative` is required. */
export interface WireSignedAmount extends WireAmount {
  negative: boolean;
}

export const NETWORKS = ['mainnet', 'testnet', 'signet', 'mutinynet', 'none'] as const;
export type WireNetwork = (typeof NETWORKS)[number];

export const PAYMENT_KINDS = ['bolt11', 'onchain', 'bip21', 'taprootasset', 'usdbatch'] as const;
export type WirePaymentKind = (typeof PAYMENT_KINDS)[number];

export const PAYMENT_CATEGORIES = ['standard', 'treasury'] as const;
export type WirePaymentCategory = (typeof PAYMENT_CATEGORIES)[number];

export const PAYMENT_ROUTES = ['direct', 'swap'] as const;
export type WirePaymentRoute = (typeof PAYMENT_ROUTES)[number];

export const SEND_STATUSES = ['sending', 'approved', 'failed', 'completed'] as const;
export type WireSendStatus = (typeof SEND_STATUSES)[number];

export const RECEIVE_STATUSES = ['generating', 'receiving', 'expired', 'failed', 'completed'] as const;
export type WireReceiveStatus = (typeof RECEIVE_STATUSES)[number];

/** OpenAPI `PaymentStatus`: the union used by filters (`statuses[]`) and summary buckets. */
export const PAYMENT_STATUSES = ['sending', 'receiving', 'approved', 'generating', 'expired', 'failed', 'completed'] as const;
export type WirePaymentStatus = (typeof PAYMENT_STATUSES)[number];

export const PAYMENT_DIRECTIONS = ['send', 'receive'] as const;
export type WirePaymentDirection = (typeof PAYMENT_DIRECTIONS)[number];

export const SORT_KEYS = ['created_at', 'updated_at'] as const;
export type WireSortKey = (typeof SORT_KEYS)[number];

export const SORT_ORDERS = ['ASC', 'DESC'] as const;
export type WireSortOrder = (typeof SORT_ORDERS)[number];

export const LEDGER_SORT_KEYS = ['effective_time', 'message_time', 'time_and_effective_time'] as const;
export type WireLedgerSortKey = (typeof LEDGER_SORT_KEYS)[number];

export const SWAP_STEPS = [
  'source_payment_submitted',
  'source_submitted',
  'target_submitted',
  'target_paid',
  'target_claimed',
  'target_confirmed',
  'source_claimed',
] as const;
export type WireSwapStep = (typeof SWAP_STEPS)[number];

// ---------------------------------------------------------------------------------------------
// Quotes and exchanges (cross-currency payments of USD wallets)

/** `<coefficient>e<scale>` = coefficient / 10^scale base units per 1 BTC. NOT scientific notation. */
export type WireRate = string;

/** OpenAPI `MarketQuote`. */
export interface WireMarketQuote {
  from: WireCurrency;
  to: WireCurrency;
  rate: WireRate;
  quoted_at: string;
  expires_at?: string | null;
}

/** OpenAPI `PeerQuote` (taproot asset RFQ). */
export interface WirePeerQuote {
  from: WireCurrency;
  to: WireCurrency;
  rfq: { id: number[]; rate: WireRate };
  peer: string;
  channel_scids?: WireInt[];
  expires_at: string;
}

/** OpenAPI `Quote`: tagged by `type`. */
export type WireQuote = { type: 'market_rate'; detail: WireMarketQuote } | { type: 'peer_rfq'; detail: WirePeerQuote };

/** OpenAPI `AmountExchange`: one conversion leg; `ledger_id` joins it to a hold or credit. */
export interface WireExchange {
  ledger_id: string;
  quote_id?: string | null;
  quote: WireQuote;
  from_amount: WireAmount;
  to_amount: WireAmount;
}

// ---------------------------------------------------------------------------------------------
// Receipts and outflows

/** OpenAPI `OnChainPaymentReceipt`. NB `amount_sats` is in WHOLE SATS, not msats (docs/service-facts.md#payment-record). */
export interface WireOnChainReceipt {
  required_confirmations_num: number;
  tx_id: string;
  ledger_id?: string | null;
  height_mined_at?: WireInt | null;
  amount_sats: WireInt;
  sanctioned_info?: { tx_id: string; sanctioned_inputs: unknown[]; sanctioned_value: WireAmount } | null;
  mined_at?: WireInt | null;
  is_pending?: boolean;
}

/** OpenAPI `LightningPaymentReceipt`. */
export interface WireLightningReceipt {
  preimage: string;
  payment_hash: string;
  ledger_id?: string | null;
}

/** OpenAPI `ShortCircuitPaymentReceipt`: settled internally against another payment. */
export interface WireShortCircuitReceipt {
  amount_msats: WireInt;
  offset_payment_id: string;
  ledger_id?: string | null;
}

/** OpenAPI `SwapPaymentReceiptData`. */
export type WireSwapRailReceipt = { type: 'onchain'; data: WireOnChainReceipt } | { type: 'lightning'; data: WireLightningReceipt };

/** OpenAPI `SwapPaymentReceipt`: one swap lifecycle step. */
export interface WireSwapReceipt {
  step: WireSwapStep;
  rail: 'lightning' | 'onchain';
  receipt: WireSwapRailReceipt;
}

/** OpenAPI `PaymentOutflow` (sends): lowercase tags. */
export type WireOutflow =
  | { type: 'onchain'; data: WireOnChainReceipt }
  | { type: 'lightning'; data: WireLightningReceipt }
  | { type: 'shortcircuit'; data: WireShortCircuitReceipt }
  | { type: 'swap'; data: WireSwapReceipt };

/** OpenAPI `ReadPaymentReceipt` (receives): lowercase tags. */
export type WireReceipt =
  | { type: 'onchain'; data: WireOnChainReceipt }
  | { type: 'lightning'; data: WireLightningReceipt }
  | { type: 'shortcircuit'; data: WireShortCircuitReceipt };

/** OpenAPI `UsdPayment`: one ACH transfer of a `usdbatch` payment. Amount in cents. */
export interface WireUsdTransfer {
  id?: string | null;
  amount: WireInt;
  identification_number: string;
  loc_id: string;
  bill_id: string;
  status: string;
  provider_updated_at?: string | null;
  error?: string | null;
  purpose?: string | null;
}

/** OpenAPI `PaymentReceipt` (capitalised tags; only inside `usdbatch`). */
export type WireBatchReceipt =
  | { type: 'OnChain'; data: WireOnChainReceipt }
  | { type: 'ShortCircuit'; data: WireShortCircuitReceipt }
  | { type: 'Ach'; data: { idempotency_key: string; transfers: WireUsdTransfer[] } }
  | { type: 'Lightning'; data: WireLightningReceipt }
  | { type: 'Swap'; data: WireSwapReceipt };

// ---------------------------------------------------------------------------------------------
// Payment `data` variants, by `type` (= kind) and direction

interface WireSendDataCommon {
  amount: WireAmount;
  /** Network/provider fee ceiling; processing fees do not count against it. */
  max_fee: WireAmount;
  /** Total actual fee charged: network/provider PLUS processing fee. */
  fees?: WireAmount | null;
  market_quote?: WireMarketQuote | null;
  outflows?: WireOutflow[];
}

export interface WireSendBolt11Data extends WireSendDataCommon {
  payment_request?: string | null;
  /** @deprecated msats */
  amount_msats: WireInt;
  /** @deprecated msats */
  max_fee_msats: WireInt;
  /** @deprecated msats; network + processing */
  fee_msats?: WireInt | null;
  memo?: string | null;
}

export interface WireSendOnchainData extends WireSendDataCommon {
  address?: string | null;
  /** @deprecated whole sats */
  amount_sats: WireInt;
  /** @deprecated whole sats */
  max_fee_sats: WireInt;
  /** @deprecated whole sats; network + processing */
  fee_sats?: WireInt | null;
  label?: string | null;
}

export interface WireSendBip21Data extends WireSendDataCommon {
  payment_request?: string | null;
  address?: string | null;
  amount_msats: WireInt;
  max_fee_msats: WireInt;
  fee_msats?: WireInt | null;
  description?: string | null;
}

export interface WireSendTaprootAssetData {
  payment_request: string;
  max_fee?: WireAmount | null;
  fees?: WireAmount | null;
  asset: string;
  amount: WireAmount;
  peer_quote?: WirePeerQuote | null;
  memo?: string | null;
  market_quote?: WireMarketQuote | null;
  outflows?: WireOutflow[];
}

export interface WireUsdBatchData {
  idempotency_key: string;
  direction: 'CREDIT' | 'DEBIT' | string;
  payments: WireUsdTransfer[];
  receipts?: WireBatchReceipt[];
  market_quote?: WireMarketQuote | null;
}

interface WireReceiveDataCommon {
  amount: WireAmount;
  /** On receives: the processing fee assessed, when configured. */
  fees?: WireAmount | null;
  expiration?: number | null;
  market_quote?: WireMarketQuote | null;
  receipts?: WireReceipt[];
}

export interface WireReceiveBolt11Data extends WireReceiveDataCommon {
  payment_request?: string | null;
  amount_msats: WireInt;
  memo?: string | null;
}

export interface WireReceiveOnchainData extends WireReceiveDataCommon {
  address?: string | null;
  /** @deprecated whole sats */
  amount_sats: WireInt;
  label?: string | null;
}

export interface WireReceiveBip21Data extends WireReceiveDataCommon {
  payment_request?: string | null;
  address?: string | null;
  amount_msats: WireInt;
  description?: string | null;
}

export interface WireReceiveTaprootAssetData extends WireReceiveDataCommon {
  payment_request?: string | null;
  asset: string;
  quote?: WireQuote | null;
  btc_amount?: WireInt | null;
  asset_amount?: { asset: string; amount: WireInt } | null;
  memo?: string | null;
}

export type WireSendVariant =
  | { type: 'bolt11'; data: WireSendBolt11Data }
  | { type: 'onchain'; data: WireSendOnchainData }
  | { type: 'bip21'; data: WireSendBip21Data }
  | { type: 'taprootasset'; data: WireSendTaprootAssetData }
  | { type: 'usdbatch'; data: WireUsdBatchData };

export type WireReceiveVariant =
  | { type: 'bolt11'; data: WireReceiveBolt11Data }
  | { type: 'onchain'; data: WireReceiveOnchainData }
  | { type: 'bip21'; data: WireReceiveBip21Data }
  | { type: 'taprootasset'; data: WireReceiveTaprootAssetData }
  | { type: 'usdbatch'; data: WireUsdBatchData };

// ---------------------------------------------------------------------------------------------
// Fees and errors on a payment

/** OpenAPI `PaymentProcessingFee`: the TERMS fixed at approval (principal's assessment currency). */
export interface WireProcessingFeeTerms {
  basis_points: number;
  amount: WireAmount;
}

/** OpenAPI `PaymentBreakdown`: what SETTLED; authoritative for reconciliation. */
export interface WirePaymentBreakdown {
  principal: WireAmount;
  network_fee: WireAmount;
  processing_fee: WireAmount;
}

/** OpenAPI `SendError` / `ReceiveErrorWire`. */
export interface WirePaymentError {
  type: string;
  code?: string | null;
  detail?: string | null;
  context?: Record<string, unknown> | null;
}

/** OpenAPI `PaymentFrozenDetails`. */
export type WireFrozen =
  | { type: 'onchain'; data: { tx_id: string; address: string; amount_sats: WireInt; reason: unknown } }
  | { type: 'credit_reversal'; data: { amount: WireAmount; reason: string } };

interface WirePaymentCommon {
  id: string;
  wallet_id: string;
  organization_id: string;
  environment_id: string;
  payment_category?: WirePaymentCategory | string;
  metadata?: Record<string, string> | null;
  created_at: string;
  updated_at: string;
  currency: WireCurrency;
  exchanges?: WireExchange[];
  processing_fee?: WireProcessingFeeTerms | null;
  payment_breakdown?: WirePaymentBreakdown | null;
  error?: WirePaymentError | null;
}

export type WireSendPayment = WirePaymentCommon &
  WireSendVariant & {
    direction: 'send';
    status: WireSendStatus | string;
    route?: WirePaymentRoute | string;
  };

export type WireReceivePayment = WirePaymentCommon &
  WireReceiveVariant & {
    direction: 'receive';
    status: WireReceiveStatus | string;
    requested_amount?: WireAmount;
    frozen?: WireFrozen[];
    bip21_uri?: string;
  };

/** OpenAPI `Payment`: branch on `direction` first, then on `type`. */
export type WirePayment = WireSendPayment | WireReceivePayment;

/** OpenAPI `Payments`: the list envelope (`total` only in offset mode). */
export interface WirePaymentsPage {
  items: WirePayment[];
  offset: number;
  limit: number;
  total?: number | null;
  next_cursor?: string | null;
  has_more?: boolean;
}

// ---------------------------------------------------------------------------------------------
// Ledger

/** OpenAPI `ProcessingFee` (inside a ledger event's breakdown). */
export interface WireLedgerProcessingFee {
  amount: WireAmount;
  basis_points: number;
  payment_classification: { kind: WirePaymentKind | string; route: string };
}

/** OpenAPI `WalletPaymentBreakdown`. */
export interface WireWalletPaymentBreakdown {
  principal: WireAmount;
  network_fee: WireAmount;
  processing_fee: WireLedgerProcessingFee;
}

/**
 * Older ledger records carry `amount_msats` + `currency` instead of an Amount (docs/service-facts.md#ledger-events).
 * Every event may therefore have either `amount` or the legacy pair.
 */
interface WireLedgerLegacyAmount {
  amount?: WireAmount;
  amount_msats?: WireInt;
  currency?: WireCurrency;
}

export type WireLedgerEvent =
  | ({ type: 'credited'; credit_id: string; payment_id: string; payment_breakdown?: WireWalletPaymentBreakdown | null; effective_time: string } & WireLedgerLegacyAmount)
  | ({ type: 'captured'; hold_id: string; payment_id: string; payment_breakdown?: WireWalletPaymentBreakdown | null; effective_time: string } & WireLedgerLegacyAmount)
  | ({ type: 'held'; hold_id: string; payment_id: string; effective_time: string } & WireLedgerLegacyAmount)
  | { type: 'released'; hold_id: string; payment_id: string; currency: WireCurrency; effective_time: string }
  | ({ type: 'deposited'; deposit_id: string; effective_time: string } & WireLedgerLegacyAmount)
  | ({ type: 'withdrawn'; withdraw_id: string; effective_time: string } & WireLedgerLegacyAmount);

export type WireLedgerEventType = WireLedgerEvent['type'];
export const LEDGER_EVENT_TYPES = ['credited', 'captured', 'held', 'released', 'deposited', 'withdrawn'] as const;

/** OpenAPI `Ledger`: offset pagination only. */
export interface WireLedgerPage {
  items: WireLedgerEvent[];
  offset: number;
  limit: number;
  total: number;
}

// ---------------------------------------------------------------------------------------------
// Wallets and assets

/** OpenAPI `Balance`. */
export interface WireBalance {
  id: string;
  wallet_id: string;
  effective_time: string;
  available: WireSignedAmount;
  total: WireSignedAmount;
  network: WireNetwork | string;
  currency: WireCurrency;
}

/** OpenAPI `Hold`. */
export interface WireHold {
  id: string;
  amount: WireSignedAmount;
  effective_time: string;
}

/** OpenAPI `PendingSettlement`. */
export interface WirePendingSettlement {
  id: string;
  bill_id?: string | null;
  amount: WireSignedAmount;
  settlement_type: 'Collection' | 'Payout' | string;
  effective_time: string;
}

/** OpenAPI `Wallet`. The list endpoint returns a BARE ARRAY of these (no envelope). */
export interface WireWallet {
  id: string;
  active: boolean;
  created_at: string;
  updated_at: string;
  deleted_at?: string | null;
  deletion_failed_at?: string | null;
  name: string;
  organization_id: string;
  environment_id: string;
  limit?: WireInt | null;
  line_of_credit_id?: string | null;
  network: WireNetwork | string;
  metadata?: Record<string, string> | null;
  balances: WireBalance[];
  holds: WireHold[];
  pending_settlements?: WirePendingSettlement[];
  error?: { type: string; detail?: string | null; context?: unknown } | null;
}

/** OpenAPI `NamedAsset`: display amount = base units / 10^decimal_display. */
export interface WireNamedAsset {
  asset: string;
  name: string;
  network: WireNetwork | string;
  decimal_display: number;
}

/** OpenAPI `SupportedAssets`. */
export interface WireSupportedAssets {
  assets: WireNamedAsset[];
}

// ---------------------------------------------------------------------------------------------
// Summaries: counts, not money

/** OpenAPI `PaymentBucketSummary`. */
export interface WireSummaryBucket {
  direction: WirePaymentDirection | string;
  status: WirePaymentStatus | string;
  currency: WireCurrency;
  kind: WirePaymentKind | string;
  total_count: WireInt;
  oldest_created_at: string;
  newest_created_at: string;
}

/** OpenAPI `PaymentCountSummary`. */
export interface WireCountSummary {
  total_count: WireInt;
  oldest_created_at: string;
  newest_created_at: string;
}

/** OpenAPI `PaymentEnvironmentSummary`. */
export interface WireEnvironmentCountSummary extends WireCountSummary {
  organization_id: string;
}

/** OpenAPI `PaymentLineOfCreditSummary`. */
export interface WireLineOfCreditSummary extends WireCountSummary {
  organization_id: string;
  environment_id: string;
  buckets: WireSummaryBucket[];
}

/** OpenAPI `PaymentSummary`: endpoint 14 (environment). Zero counts and empty maps when nothing matches. */
export interface WireEnvironmentSummary {
  organization_id?: string | null;
  environment_id?: string | null;
  total_count: WireInt;
  oldest_created_at?: string | null;
  newest_created_at?: string | null;
  by_organization_id: Record<string, WireCountSummary>;
  by_environment_id: Record<string, WireEnvironmentCountSummary>;
  by_line_of_credit_id: Record<string, WireLineOfCreditSummary>;
}

/** OpenAPI `PaymentWalletSummary`: endpoint 15. */
export interface WireWalletSummary {
  wallet_id: string;
  organization_id: string;
  environment_id: string;
  line_of_credit_id?: string | null;
  total_count: WireInt;
  oldest_created_at?: string | null;
  newest_created_at?: string | null;
  buckets: WireSummaryBucket[];
}

// ---------------------------------------------------------------------------------------------
// Policies

/** OpenAPI `Policy`: tagged by `type`; `data` shapes vary and are kept opaque here. */
export interface WirePolicy {
  type: 'max_payment_size' | 'transaction_velocity' | 'send_volume_limit' | 'reflex_approval' | 'ofac_compliant' | 'processing_fee' | string;
  data: Record<string, unknown>;
}

/** OpenAPI `WalletPolicies`. */
export interface WireWalletPolicies {
  id: string;
  organization_id?: string | null;
  policies: WirePolicy[];
  error?: unknown;
  updated_at: string;
}

// ---------------------------------------------------------------------------------------------
// Errors and webhooks

/** The error envelope of every non-2xx response. */
export interface WireErrorBody {
  error: {
    type: string;
    detail: string;
    code?: string | null;
    context?: Record<string, unknown> | null;
  };
}

/** Webhook delivery body (OpenAPI `Payload`). Signed: base64 HMAC-SHA256 over `raw_body + "." + timestamp`. */
export type WireWebhookPayload =
  | { type: 'send'; detail: { event: string; data: WirePayment } }
  | { type: 'receive'; detail: { event: string; data: WirePayment } }
  | { type: 'test'; detail: { event: string; data: string } };

// ---------------------------------------------------------------------------------------------
// Billing (OpenAPI tag Billing): bills per line of credit and period. All BTC amounts in msats.

export const BILL_STATUSES = ['payment_due', 'queued', 'processing', 'paid', 'void', 'failed'] as const;
export type WireBillStatus = (typeof BILL_STATUSES)[number];

export const RECONCILIATION_FREQUENCIES = ['daily', 'weekly', 'monthly', 'bi_monthly', 'never'] as const;
export type WireReconciliationFrequency = (typeof RECONCILIATION_FREQUENCIES)[number];

export const SETTLEMENT_TYPES = ['Collection', 'Payout'] as const;
export type WireSettlementType = (typeof SETTLEMENT_TYPES)[number];

/** OpenAPI `ProcessingFees`: gross processing fees by direction; `total` = send + receive. */
export interface WireProcessingFees {
  total: WireAmount;
  send: WireAmount;
  receive: WireAmount;
}

/** OpenAPI `PaymentActivityBucket`. */
export interface WirePaymentActivityBucket {
  count: WireInt;
  volume: WireAmount;
}

/** OpenAPI `DirectionalPaymentActivity`. */
export interface WireDirectionalPaymentActivity {
  send: WirePaymentActivityBucket;
  receive: WirePaymentActivityBucket;
}

/** OpenAPI `PaymentActivity`: absent on historical invoices. */
export interface WirePaymentActivity {
  standard: WireDirectionalPaymentActivity;
  treasury: WireDirectionalPaymentActivity;
}

/** OpenAPI `VolumeFee`: one Amount (flat rate) or `{total, send, receive}` (directional rates). */
export type WireVolumeFee = WireAmount | { total: WireAmount; send: WireAmount; receive: WireAmount };

/** OpenAPI `LineItem`: one wallet's activity in the bill's period. */
export interface WireBillLineItem {
  wallet_id: string;
  starting_balance?: WireSignedAmount;
  currency: WireCurrency;
  /** abs(amount_sent − amount_received) */
  amount_total: WireAmount;
  settlement_type: WireSettlementType | string;
  total_transactions_sent: WireInt;
  /** gross debits: principal + network fee + send processing fee */
  amount_sent: WireAmount;
  total_transactions_received: WireInt;
  /** gross credits: receiver principal (the payer-funded receive fee is outside it) */
  amount_received: WireAmount;
  processing_fees?: WireProcessingFees;
  payment_activity?: WirePaymentActivity;
  volume_fee: WireVolumeFee;
  interest_fee?: WireAmount;
  payout_holdback?: WireAmount | null;
}

/** OpenAPI `Invoice`. */
export interface WireInvoice {
  line_of_credit_id: string;
  line_items: WireBillLineItem[];
  created_at: string;
  due_date: string;
  service_fee: WireAmount;
  settlement_fee?: WireAmount | null;
}

/** OpenAPI `BillRead`; the nested ACH, scheduled-section and error shapes are kept opaque. */
export interface WireBill {
  id: string;
  organization_id: string;
  line_of_credit_id: string;
  fulfillment_ids?: string[];
  start_time: string;
  end_time: string;
  period_length: WireReconciliationFrequency | string;
  status: WireBillStatus | string;
  settlement_type: WireSettlementType | string;
  wallet_ids: string[];
  invoice: WireInvoice;
  scheduled_sections?: unknown[];
  volume_fee_percentage?: number | { send: number; receive: number };
  settlement_fee_percentage?: number;
  payout_holdback?: unknown;
  /** unsigned settlement magnitude; direction from settlement_type */
  amt_due: WireAmount;
  ln_invoice?: string | null;
  address?: string | null;
  amt_paid?: WireAmount | null;
  created_at: string;
  updated_at: string;
  queued_at?: string | null;
  fulfillment_requested_at?: string | null;
  ach?: unknown;
  payment_received_at?: string | null;
  paid_at?: string | null;
  settled_at?: string | null;
  voided_at?: string | null;
  error?: unknown;
  failed_at?: string | null;
}

/** OpenAPI `BillPage`: cursor pages. */
export interface WireBillPage {
  items: WireBill[];
  limit: number;
  next_cursor?: string | null;
  has_more: boolean;
}

/** OpenAPI `BillCurrencyStatusSummary`. */
export interface WireBillCurrencyStatusSummary {
  bill_total_count: WireInt;
  inflight_total_count: WireInt;
  total_due_base_units: WireInt;
}

/** OpenAPI `BillCurrencySummary`. */
export interface WireBillCurrencySummary extends WireBillCurrencyStatusSummary {
  oldest_created_at: string;
  newest_created_at: string;
  by_status: Record<string, WireBillCurrencyStatusSummary>;
}

/** OpenAPI `BillSummary`. */
export interface WireBillSummary {
  organization_id: string;
  line_of_credit_id?: string | null;
  bill_total_count: WireInt;
  inflight_total_count: WireInt;
  amount_units: Record<string, string>;
  by_currency: Record<string, WireBillCurrencySummary>;
  by_status: Record<string, { bill_total_count: WireInt; inflight_total_count: WireInt }>;
}
