/**
 * Whether a published folder's manifest.json is the one the installation signed
 * (docs/audit.md#signed-manifests): the manifest names its key, the key is one the checker trusts,
 * and `manifest.json.sig` is that key's Ed25519 signature of the manifest's exact bytes. Said in
 * one sentence when it is not, for `verify` and `verify --chain`.
 */
import type { KeyObject } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { SIGNATURE_FILE, signatureHolds } from '../audit/manifest-signature.js';

export type SignatureCheck = { ok: true; keyId: string } | { ok: false; why: string };

export async function checkFolderSignature(dir: string, manifestBytes: Buffer, manifest: Record<string, unknown>, keys: ReadonlyMap<string, KeyObject>): Promise<SignatureCheck> {
  const note = manifest['signature'] as { algorithm?: unknown; key_id?: unknown } | undefined;
  if (note === undefined || note === null || typeof note !== 'object') return { ok: false, why: 'manifest.json is not signed (no signature note; written before signing, or the note removed)' };
  if (note.algorithm !== 'ed25519' || typeof note.key_id !== 'string') return { ok: false, why: 'manifest.json names no Ed25519 key' };
  const signature = await readFile(join(dir, SIGNATURE_FILE)).catch(() => null);
  if (signature === null) return { ok: false, why: `${SIGNATURE_FILE} is missing (manifest.json says key ${note.key_id} signed it)` };
  const key = keys.get(note.key_id);
  if (key === undefined) return { ok: false, why: `signed by key ${note.key_id}, which is not among the trusted keys (${[...keys.keys()].join(', ') || 'none'})` };
  if (!signatureHolds(manifestBytes, signature, key)) return { ok: false, why: `${SIGNATURE_FILE} is not key ${note.key_id}'s signature of manifest.json (the manifest changed after signing, or another key signed it)` };
  return { ok: true, keyId: note.key_id };
}
