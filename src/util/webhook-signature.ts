/**
 * The service's webhook signature scheme, in one place for both directions: the listener verifies
 * deliveries with it, and run notifications sign their own webhook payloads with it, so a receiver
 * that verifies one verifies the other.
 *
 *   signature = base64( HMAC-SHA256( key = the shared secret's literal UTF-8 bytes,
 *                                    message = raw body bytes + "." + unix-seconds timestamp ) )
 *
 * The key is used as written (a `vltg_` prefix is part of it; nothing is base64-decoded). The HMAC
 * runs over the raw bytes as received, never over re-serialized JSON. A signature is accepted only
 * in canonical padded base64 of exactly 32 bytes, compared in constant time against every
 * candidate secret (several during a rotation) without stopping at the first match.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

const CANONICAL_SIGNATURE = /^[A-Za-z0-9+/]{43}=$/;

function digest(secret: string, rawBody: Uint8Array | string, timestampSeconds: number | string): Buffer {
  return createHmac('sha256', Buffer.from(secret, 'utf8')).update(rawBody).update(`.${timestampSeconds}`).digest();
}

/** The base64 signature of `rawBody` at `timestampSeconds` under `secret`. */
export function signPayload(secret: string, rawBody: Uint8Array | string, timestampSeconds: number): string {
  return digest(secret, rawBody, timestampSeconds).toString('base64');
}

/**
 * True when `signature` is the canonical signature of `rawBody` + "." + `timestamp` under one of
 * `secrets`. `timestamp` is taken as the header's text, so what is verified is what was signed.
 */
export function verifySignature(secrets: readonly string[], rawBody: Uint8Array | string, timestamp: string, signature: string): boolean {
  if (!CANONICAL_SIGNATURE.test(signature)) return false;
  const given = Buffer.from(signature, 'base64');
  if (given.length !== 32 || given.toString('base64') !== signature) return false;
  let matched = false;
  for (const secret of secrets) {
    // every candidate is checked: the time taken does not tell which one (or whether one) matched
    if (timingSafeEqual(digest(secret, rawBody, timestamp), given)) matched = true;
  }
  return matched;
}
