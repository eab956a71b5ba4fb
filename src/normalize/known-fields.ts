/**
 * The field names the OpenAPI document (spec/voltage-openapi.json, 2026-10-02) lists per
 * object. Anything else is kept in `raw` and flagged `unknown_field:<path>` (docs/reliability.md#api-misbehaviour-api, API-10).
 * `data` is the union over every payment type and direction: a field that belongs to another type is
 * not news, a field nobody documents is.
 */
const set = (...names: string[]): ReadonlySet<string> => new Set(names);

export const PAYMENT_FIELDS = set(
  'id', 'wallet_id', 'organization_id', 'environment_id', 'direction', 'type', 'data', 'created_at', 'updated_at',
  'currency', 'status', 'payment_category', 'metadata', 'error', 'exchanges', 'processing_fee', 'payment_breakdown',
  'route', 'requested_amount', 'frozen', 'bip21_uri',
);

export const PAYMENT_DATA_FIELDS = set(
  'payment_request', 'address', 'amount', 'max_fee', 'fees', 'amount_msats', 'max_fee_msats', 'fee_msats',
  'amount_sats', 'max_fee_sats', 'fee_sats', 'memo', 'label', 'description', 'market_quote', 'outflows', 'receipts',
  'expiration', 'asset', 'peer_quote', 'quote', 'btc_amount', 'asset_amount', 'idempotency_key', 'direction', 'payments',
);

export const TAGGED_FIELDS = set('type', 'data');
export const ONCHAIN_RECEIPT_FIELDS = set(
  'required_confirmations_num', 'tx_id', 'ledger_id', 'height_mined_at', 'amount_sats', 'sanctioned_info', 'mined_at', 'is_pending',
);
export const LIGHTNING_RECEIPT_FIELDS = set('preimage', 'payment_hash', 'ledger_id');
export const SHORTCIRCUIT_RECEIPT_FIELDS = set('amount_msats', 'offset_payment_id', 'ledger_id');
export const SWAP_RECEIPT_FIELDS = set('step', 'rail', 'receipt');
export const ACH_RECEIPT_FIELDS = set('idempotency_key', 'transfers');
export const USD_TRANSFER_FIELDS = set(
  'id', 'amount', 'identification_number', 'loc_id', 'bill_id', 'status', 'provider_updated_at', 'error', 'purpose',
);

export const EXCHANGE_FIELDS = set('ledger_id', 'quote_id', 'quote', 'from_amount', 'to_amount');
export const QUOTE_FIELDS = set('type', 'detail');
export const MARKET_QUOTE_FIELDS = set('from', 'to', 'rate', 'quoted_at', 'expires_at');
export const PEER_QUOTE_FIELDS = set('from', 'to', 'rfq', 'peer', 'channel_scids', 'expires_at');

export const PROCESSING_FEE_TERMS_FIELDS = set('basis_points', 'amount');
export const PAYMENT_BREAKDOWN_FIELDS = set('principal', 'network_fee', 'processing_fee');
export const PAYMENT_ERROR_FIELDS = set('type', 'code', 'detail', 'context');

export const LEDGER_EVENT_FIELDS = set(
  'type', 'credit_id', 'hold_id', 'deposit_id', 'withdraw_id', 'payment_id', 'amount', 'amount_msats', 'currency',
  'payment_breakdown', 'effective_time',
);
export const LEDGER_PROCESSING_FEE_FIELDS = set('amount', 'basis_points', 'payment_classification');

export const WALLET_FIELDS = set(
  'id', 'active', 'created_at', 'updated_at', 'deleted_at', 'deletion_failed_at', 'name', 'organization_id',
  'environment_id', 'limit', 'line_of_credit_id', 'network', 'metadata', 'balances', 'holds', 'pending_settlements', 'error',
);
export const BALANCE_FIELDS = set('id', 'wallet_id', 'effective_time', 'available', 'total', 'network', 'currency');

export const ASSET_FIELDS = set('asset', 'name', 'network', 'decimal_display');

export const ENVIRONMENT_SUMMARY_FIELDS = set(
  'organization_id', 'environment_id', 'total_count', 'oldest_created_at', 'newest_created_at',
  'by_organization_id', 'by_environment_id', 'by_line_of_credit_id',
);
export const WALLET_SUMMARY_FIELDS = set(
  'wallet_id', 'organization_id', 'environment_id', 'line_of_credit_id', 'total_count', 'oldest_created_at', 'newest_created_at', 'buckets',
);
export const LINE_OF_CREDIT_SUMMARY_FIELDS = set('organization_id', 'environment_id', 'total_count', 'oldest_created_at', 'newest_created_at', 'buckets');
export const BUCKET_FIELDS = set('direction', 'status', 'currency', 'kind', 'total_count', 'oldest_created_at', 'newest_created_at');
