/**
 * A report folder signed the way docs/audit.md#signed-manifests describes, by OpenSSL rather than
 * by payexport: an Ed25519 key made by `openssl genpkey`, its id the sha256 of the public key's
 * DER, the manifest naming it, and `manifest.json.sig` made by `openssl pkeyutl -sign -rawin` over
 * the manifest's exact bytes. The delivery tests send such a folder and check what arrives.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sha256 } from './report-folder.js';

export interface OpensslKey {
  privateKey: string;
  publicKey: string;
  keyId: string;
}

/** A new Ed25519 key pair in `dir`: `signing-key.pem` (0600) and `public.pem`. */
export function opensslKey(dir: string): OpensslKey {
  const privateKey = join(dir, 'signing-key.pem');
  const publicKey = join(dir, 'public.pem');
  execFileSync('openssl', ['genpkey', '-algorithm', 'ed25519', '-out', privateKey]);
  execFileSync('openssl', ['pkey', '-in', privateKey, '-pubout', '-out', publicKey]);
  const der = execFileSync('openssl', ['pkey', '-in', privateKey, '-pubout', '-outform', 'DER']);
  return { privateKey, publicKey, keyId: `ed25519:${sha256(der).slice(0, 16)}` };
}

/** Adds the signature note to the folder's manifest and signs the result; returns the manifest's bytes. */
export function signFolder(dir: string, key: OpensslKey): Buffer {
  const path = join(dir, 'manifest.json');
  const manifest = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
  manifest['signature'] = { algorithm: 'ed25519', key_id: key.keyId, file: 'manifest.json.sig' };
  const bytes = Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`);
  writeFileSync(path, bytes);
  execFileSync('openssl', ['pkeyutl', '-sign', '-inkey', key.privateKey, '-rawin', '-in', path, '-out', join(dir, 'manifest.json.sig')]);
  return bytes;
}

/** OpenSSL's answer to "is `sig` the key's signature of `manifest`": true only on "Signature Verified Successfully". */
export function opensslVerifies(publicKey: string, manifest: string, sig: string): boolean {
  try {
    return /Signature Verified Successfully/.test(execFileSync('openssl', ['pkeyutl', '-verify', '-pubin', '-inkey', publicKey, '-rawin', '-in', manifest, '-sigfile', sig], { stdio: ['ignore', 'pipe', 'pipe'] }).toString());
  } catch {
    return false;
  }
}
