/**
 * The checks a delivery passes before anything else looks at it, in order (the service's
 * Webhooks guide): the three headers present, the timestamp within the replay window in both
 * directions, the registration known, the signature valid for one of its candidate secrets —
 * and only then the body parsed. Pure: the caller supplies the clock and the secrets.
 *
 * Every refusal names a reason for the counter and the log; the HTTP answer carries none of it.
 */
import { verifySignature } from '../util/webhook-signature.js';

export type Rejection = 'missing_headers' | 'bad_timestamp' | 'stale_timestamp' | 'future_timestamp' | 'unknown_webhook' | 'bad_signature' | 'not_json' | 'not_utf8';

export interface DeliveryHeaders {
  webhookId: string | undefined;
  timestamp: string | undefined;
  signature: string | undefined;
}

export interface VerifyInput {
  headers: DeliveryHeaders;
  rawBody: Buffer;
  nowSeconds: number;
  toleranceSeconds: number;
  /** the candidate secrets of a registration, or undefined when it is unknown */
  secretsFor(webhookId: string): readonly string[] | undefined;
}

export interface VerifiedDelivery {
  webhookId: string;
  signedAt: number;
  /** the body as received, decoded as UTF-8 */
  text: string;
  payload: unknown;
}

export type VerifyResult = { ok: true; delivery: VerifiedDelivery; skewSeconds: number } | { ok: false; reason: Rejection; skewSeconds: number | null };

const DIGITS = /^\d{1,15}$/;
const utf8 = new TextDecoder('utf-8', { fatal: true });

export function verifyDelivery(input: VerifyInput): VerifyResult {
  const { webhookId, timestamp, signature } = input.headers;
  if (!webhookId || !timestamp || !signature) return { ok: false, reason: 'missing_headers', skewSeconds: null };
  if (!DIGITS.test(timestamp)) return { ok: false, reason: 'bad_timestamp', skewSeconds: null };
  const signedAt = Number(timestamp);
  const skewSeconds = input.nowSeconds - signedAt;
  if (skewSeconds > input.toleranceSeconds) return { ok: false, reason: 'stale_timestamp', skewSeconds };
  if (-skewSeconds > input.toleranceSeconds) return { ok: false, reason: 'future_timestamp', skewSeconds };
  const secrets = input.secretsFor(webhookId.toLowerCase());
  if (secrets === undefined || secrets.length === 0) return { ok: false, reason: 'unknown_webhook', skewSeconds };
  if (!verifySignature(secrets, input.rawBody, timestamp, signature)) return { ok: false, reason: 'bad_signature', skewSeconds };
  let text: string;
  try {
    text = utf8.decode(input.rawBody);
  } catch {
    return { ok: false, reason: 'not_utf8', skewSeconds };
  }
  let payload: unknown;
  try {
    payload = JSON.parse(text);
  } catch {
    return { ok: false, reason: 'not_json', skewSeconds };
  }
  if (payload === null || typeof payload !== 'object' || Array.isArray(payload)) return { ok: false, reason: 'not_json', skewSeconds };
  return { ok: true, delivery: { webhookId: webhookId.toLowerCase(), signedAt, text, payload }, skewSeconds };
}
