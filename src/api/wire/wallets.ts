/**
 * Wallets, their balances, holds and pending settlements, and the supported assets.
 *
 * One part of the wire vocabulary (the service's JSON exactly as sent, snake_case): its
 * conventions and its check against spec/voltage-openapi.json are in ./amounts.ts.
 */

import type { WireCurrency, WireInt, WireSignedAmount } from './amounts.js';
import type { WireNetwork } from './enums.js';

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
