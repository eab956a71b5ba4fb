/**
 * Summaries: counts of payments by bucket, not money.
 *
 * One part of the wire vocabulary (the service's JSON exactly as sent, snake_case): its
 * conventions and its check against spec/voltage-openapi.json are in ./amounts.ts.
 */

import type { WireCurrency, WireInt } from './amounts.js';
import type { WirePaymentDirection, WirePaymentKind, WirePaymentStatus } from './enums.js';

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
