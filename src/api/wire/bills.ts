/**
 * Billing (OpenAPI tag Billing): bills per line of credit and period. All BTC amounts in msats.
 *
 * One part of the wire vocabulary (the service's JSON exactly as sent, snake_case): its
 * conventions and its check against spec/voltage-openapi.json are in ./amounts.ts.
 */

import type { WireAmount, WireCurrency, WireInt, WireSignedAmount } from './amounts.js';

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
