/**
 * The run's manifest signer (docs/audit.md#the-signing-key), in a file of its own because it joins
 * the key's place (signing-key.ts) and the signature (manifest-signature.ts), which know nothing of
 * each other.
 */
import { sign } from 'node:crypto';
import type { ManifestSigner } from './manifest-signature.js';
import { loadSigningKey, obtainSigningKey, type SigningKey } from './signing-key.js';

/**
 * A signer whose key is read now and created only when a folder is first signed: a key others can
 * read stops the run before any request (78), while a run refused or stopped before it publishes
 * leaves no key behind in the user's configuration folder.
 */
export function deferredSigner(path: string): ManifestSigner {
  let key: SigningKey | null = loadSigningKey(path);
  const ready = (): SigningKey => (key ??= obtainSigningKey(path));
  return {
    get keyId() {
      return ready().keyId;
    },
    get publicKeyPem() {
      return ready().publicKeyPem;
    },
    sign: (bytes) => sign(null, bytes, ready().privateKey),
  };
}
