import { z } from 'zod';

/**
 * Request bodies of the write endpoints (OpenAPI `PaymentRequest`, `SendPaymentRequest`,
 * `NewWalletRequest`, `UpdateWalletRequest`, `UpdateWalletPolicyRequest`, `NewQuoteRequest`,
 * `NewWebhookRequest`) plus the interface's extras (`description` on receives, a top-level
 * receive `currency`). A body that does not match is 422 `invalid_data`; unknown fields are
 * ignored (serde's default), except on the policy update, which the OpenAPI closes.
 */

const uuid = z.string().regex(/^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/, 'expected a UUID');
/** integers arrive as number, or bigint beyond 2^53 (lossless parse) */
const integer = z.union([z.number().int(), z.bigint()]).transform((v) => BigInt(v));
const currency = z.string().regex(/^(btc|usd|asset:[a-fA-F0-9]{66})$/, 'expected btc, usd or asset:<66 hex>');

export const amountSchema = z.object({ currency, amount: integer, unit: z.string().optional() });
export type AmountInput = z.infer<typeof amountSchema>;

const metadata = z.record(z.string().max(256), z.string().max(256)).refine((m) => Object.keys(m).length <= 50, 'at most 50 metadata keys');

const flowPreference = z.union([z.enum(['direct', 'swap']), z.object({ type: z.literal('swap'), rail: z.enum(['lightning', 'onchain']).optional() })]);

const sendCommon = {
  id: uuid,
  wallet_id: uuid,
  currency: z.string(),
  quote_id: uuid.optional(),
  metadata: metadata.optional(),
  flow_preference: flowPreference.optional(),
};

export const sendRequestSchema = z.discriminatedUnion('type', [
  z.object({
    ...sendCommon,
    type: z.literal('bolt11'),
    data: z.object({ payment_request: z.string(), amount: amountSchema.optional(), max_fee: amountSchema.optional(), max_fee_msats: integer.optional(), amount_msats: integer.optional() }),
  }),
  z.object({
    ...sendCommon,
    type: z.literal('onchain'),
    data: z.object({ address: z.string(), amount: amountSchema.optional(), amount_sats: integer.optional(), max_fee: amountSchema.optional(), description: z.string().optional() }),
  }),
  z.object({
    ...sendCommon,
    type: z.literal('bip21'),
    data: z.object({ address: z.string(), payment_request: z.string().optional(), amount: amountSchema.optional(), max_fee: amountSchema.optional(), description: z.string().optional() }),
  }),
  z.object({
    ...sendCommon,
    type: z.literal('taprootasset'),
    data: z.object({ payment_request: z.string(), asset: z.string(), amount: amountSchema, max_fee: amountSchema }),
  }),
]);
export type SendRequest = z.infer<typeof sendRequestSchema>;

export const receiveRequestSchema = z.object({
  id: uuid,
  wallet_id: uuid,
  payment_kind: z.enum(['bolt11', 'onchain', 'bip21', 'taprootasset']),
  amount: amountSchema.optional(),
  /** legacy forms */
  amount_msats: integer.optional(),
  amount_sats: integer.optional(),
  currency: z.string().optional(),
  description: z.string().optional(),
  expiration: z.number().int().optional(),
  metadata: metadata.optional(),
  quote_id: uuid.optional(),
});
export type ReceiveRequest = z.infer<typeof receiveRequestSchema>;

export const newWalletSchema = z.object({
  id: uuid,
  environment_id: uuid,
  line_of_credit_id: uuid,
  name: z.string().min(3).max(256),
  network: z.enum(['mainnet', 'testnet3', 'mutinynet']),
  limit: integer,
  metadata: z.record(z.string(), z.string()).nullable().optional(),
});

export const updateWalletSchema = z.object({ name: z.string() });

export const updatePoliciesSchema = z.strictObject({
  max_payment_size_sats: z.number().int().min(1).nullable().optional(),
  transactions_per_minute: z.number().int().min(1).nullable().optional(),
  send_volume_limit_sats: z.number().int().min(1).nullable().optional(),
  template_id: uuid.nullable().optional(),
  ofac_compliant: z.boolean().nullable().optional(),
  processing_fee: z.object({ send_basis_points: z.number().int().min(0).max(10_000), receive_basis_points: z.number().int().min(0).max(10_000) }).nullable().optional(),
});

export const newQuoteSchema = z.object({
  id: uuid,
  line_of_credit_id: uuid,
  network: z.enum(['mainnet', 'testnet', 'signet', 'mutinynet', 'none']),
  amount: amountSchema,
  to: currency,
  target_precision: z.object({ precision: z.enum(['sats', 'msats', 'cents']), currency: z.enum(['btc', 'usd']) }).nullable().optional(),
});

const eventType = z.union([
  z.object({ send: z.enum(['succeeded', 'failed']) }),
  z.object({ receive: z.enum(['generated', 'detected', 'refreshed', 'expired', 'succeeded', 'completed', 'failed']) }),
  z.object({ test: z.literal('created') }),
]);

export const newWebhookSchema = z.object({ id: uuid, url: z.string().url(), name: z.string(), events: z.array(eventType) });
export type WebhookEventSelector = z.infer<typeof eventType>;

/** The first issue of a failed parse, as one line. */
export function describeIssues(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'invalid request body';
  const path = issue.path.length > 0 ? issue.path.join('.') : 'body';
  return `${path}: ${issue.message}`;
}
