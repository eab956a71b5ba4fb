/**
 * A signing key's public half and its id (docs/audit.md#the-signing-key). The id is `ed25519:` and
 * the first 16 hex digits of the sha256 of the public key's DER (SubjectPublicKeyInfo), so an
 * auditor recomputes it from the PEM: `openssl pkey -pubin -in KEY.pem -outform DER | sha256sum`.
 */
import { createHash, createPublicKey, type KeyObject } from 'node:crypto';

export function keyIdOf(publicKey: KeyObject): string {
  const der = publicKey.export({ type: 'spki', format: 'der' });
  return `ed25519:${createHash('sha256').update(der).digest('hex').slice(0, 16)}`;
}

/** A public key read from PEM text (an auditor's copy, or one kept under the output root). */
export function publicKeyFromPem(pem: string): { keyId: string; publicKey: KeyObject } {
  const publicKey = createPublicKey(pem);
  if (publicKey.asymmetricKeyType !== 'ed25519') throw new Error(`not an Ed25519 public key (${publicKey.asymmetricKeyType ?? 'unknown type'})`);
  return { keyId: keyIdOf(publicKey), publicKey };
}
