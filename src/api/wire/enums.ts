/**
 * The closed value sets of payments, as the OpenAPI document lists them (the wire-vs-openapi test
 * holds them equal). normalize/ keeps a value outside them verbatim and flags it (docs/style.md#7-normalization).
 *
 * One part of the wire vocabulary (the service's JSON exactly as sent, snake_case): its
 * conventions and its check against spec/voltage-openapi.json are in ./amounts.ts.
 */

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
