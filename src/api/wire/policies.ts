/**
 * Wallet policies.
 *
 * One part of the wire vocabulary (the service's JSON exactly as sent, snake_case): its
 * conventions and its check against spec/voltage-openapi.json are in ./amounts.ts.
 */

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
