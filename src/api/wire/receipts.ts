/**
 * Receipts and outflows: how a payment settled on each rail (on-chain, lightning, short-circuit,
 * swap, ACH).
 *
 * One part of the wire vocabulary (the service's JSON exactly as sent, snake_case): its
 * conventions and its check against spec/voltage-openapi.json are in ./amounts.ts.
 */

import type { WireAmount, WireInt } from './amounts.js';
import type { WireSwapStep } from './enums.js';

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
