/**
 * Ledger events, with the legacy amount shape older records carry.
 *
 * One part of the wire vocabulary (the service's JSON exactly as sent, snake_case): its
 * conventions and its check against spec/voltage-openapi.json are in ./amounts.ts.
 */

import type { WireAmount, WireCurrency, WireInt } from './amounts.js';
import type { WirePaymentKind } from './enums.js';

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
