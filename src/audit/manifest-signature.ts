/**
 * A report folder's signature (docs/audit.md#signed-manifests): `manifest.json.sig` holds the raw
 * 64-byte Ed25519 signature (RFC 8032, pure Ed25519) of the exact bytes of `manifest.json`, which
 * names the key that signed it (`signature.key_id`). Every other file is covered through the
 * manifest's sha256 of it. What is signed is a file's bytes, not a re-serialization, so
 * `openssl pkeyutl -verify -pubin -inkey KEY.pem -rawin -in manifest.json -sigfile manifest.json.sig`
 * checks the same thing this module does.
 *
 * The public halves are kept under the output root in `.audit/keys/` (never removed: an old key
 * still verifies the closes it signed after a rotation).
 */
import { sign, verify, type KeyObject } from 'node:crypto';
import { mkdir, readdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { publicKeyFromPem } from './public-key.js';
import type { SigningKey } from './signing-key.js';

export const SIGNATURE_FILE = 'manifest.json.sig';
export const SIGNATURE_ALGORITHM = 'ed25519';
/** below the output root: the public keys that signed its folders */
export const KEYS_FOLDER = join('.audit', 'keys');

/** What a manifest says about its signature (the signature itself cannot be inside what it signs). */
export interface ManifestSignatureNote {
  algorithm: typeof SIGNATURE_ALGORITHM;
  key_id: string;
  file: typeof SIGNATURE_FILE;
}

/** What the sinks need to sign a folder: no access to the key file itself. */
export interface ManifestSigner {
  readonly keyId: string;
  readonly publicKeyPem: string;
  sign(bytes: Buffer): Buffer;
}

export function manifestSigner(key: SigningKey): ManifestSigner {
  return { keyId: key.keyId, publicKeyPem: key.publicKeyPem, sign: (bytes) => sign(null, bytes, key.privateKey) };
}

export function signatureNote(signer: ManifestSigner): ManifestSignatureNote {
  return { algorithm: SIGNATURE_ALGORITHM, key_id: signer.keyId, file: SIGNATURE_FILE };
}

export function signatureHolds(bytes: Buffer, signature: Buffer, publicKey: KeyObject): boolean {
  try {
    return signature.length === 64 && verify(null, bytes, publicKey, signature);
  } catch {
    return false;
  }
}

/** The file name a key's PEM has under `.audit/keys/`: `ed25519-<16 hex>.pem`. */
export function publicKeyFileName(keyId: string): string {
  return `${keyId.replace(':', '-')}.pem`;
}

/** Writes the signer's public key under the root's `.audit/keys/` unless it is there already. */
export async function keepPublicKey(root: string, signer: ManifestSigner): Promise<string> {
  const folder = join(root, KEYS_FOLDER);
  const path = join(folder, publicKeyFileName(signer.keyId));
  const present = await readFile(path, 'utf8').catch(() => null);
  if (present === signer.publicKeyPem) return path;
  await mkdir(folder, { recursive: true, mode: 0o755 });
  const temp = `${path}.tmp-${process.pid}`;
  await writeFile(temp, signer.publicKeyPem, { mode: 0o644, flush: true });
  await rename(temp, path);
  return path;
}

/** The public keys kept under a root, by key id (a file that is not an Ed25519 public key is named in `unreadable`). */
export async function rootPublicKeys(root: string): Promise<{ keys: Map<string, KeyObject>; unreadable: string[] }> {
  const folder = join(root, KEYS_FOLDER);
  const keys = new Map<string, KeyObject>();
  const unreadable: string[] = [];
  const names = await readdir(folder).catch(() => [] as string[]);
  for (const name of names.filter((n) => n.endsWith('.pem')).sort()) {
    try {
      const { keyId, publicKey } = publicKeyFromPem(await readFile(join(folder, name), 'utf8'));
      keys.set(keyId, publicKey);
    } catch {
      unreadable.push(join(KEYS_FOLDER, name));
    }
  }
  return { keys, unreadable };
}
