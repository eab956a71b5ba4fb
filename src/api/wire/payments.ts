/**
 * The payment record: its common fields, its fees and errors, and the list envelope.
 *
 * One part of the wire vocabulary (the service's JSON exactly as sent, snake_case): its
 * conventions and its check against spec/voltage-openapi.json are in ./amounts.ts.
 */

import type { WireAmount, WireCurrency, WireInt } from './amounts.js';
import type { WirePaymentCategory, WirePaymentRoute, WireReceiveStatus, WireSendStatus } from './enums.js';
import type { WireReceiveVariant, WireSendVariant } from './payment-data.js';
import type { WireExchange } from './quotes.js';

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
