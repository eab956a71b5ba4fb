/**
 * A payment's `data`, one variant per `type` (= kind) and direction.
 *
 * One part of the wire vocabulary (the service's JSON exactly as sent, snake_case): its
 * conventions and its check against spec/voltage-openapi.json are in ./amounts.ts.
 */

import type { WireAmount, WireInt } from './amounts.js';
import type { WireMarketQuote, WirePeerQuote, WireQuote } from './quotes.js';
import type { WireBatchReceipt, WireOutflow, WireReceipt, WireUsdTransfer } from './receipts.js';

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
