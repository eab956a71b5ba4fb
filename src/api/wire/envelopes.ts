/**
 * What wraps a record rather than being one: the error body of every non-2xx response and the
 * webhook delivery body.
 *
 * One part of the wire vocabulary (the service's JSON exactly as sent, snake_case): its
 * conventions and its check against spec/voltage-openapi.json are in ./amounts.ts.
 */

import type { WirePayment } from './payments.js';

/** The error envelope of every non-2xx response. */
export interface WireErrorBody {
  error: {
    type: string;
    detail: string;
    code?: string | null;
    context?: Record<string, unknown> | null;
  };
}

/** Webhook delivery body (OpenAPI `Payload`). Signed: base64 HMAC-SHA256 over `raw_body + "." + timestamp`. */
export type WireWebhookPayload =
  | { type: 'send'; detail: { event: string; data: WirePayment } }
  | { type: 'receive'; detail: { event: string; data: WirePayment } }
  | { type: 'test'; detail: { event: string; data: string } };
