import { execFileSync } from 'node:child_process';
import { createHash, createPublicKey, generateKeyPairSync } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { keepPublicKey, manifestSigner, publicKeyFileName, rootPublicKeys, signatureHolds, signatureNote } from '../../../src/audit/manifest-signature.js';
import { keyIdOf, publicKeyFromPem } from '../../../src/audit/public-key.js';
import { obtainSigningKey } from '../../../src/audit/signing-key.js';

/**
 * A manifest's signature and the key id on their own (docs/audit.md#signed-manifests), checked
 * against OpenSSL both ways: what payexport signs OpenSSL verifies (`pkeyutl -verify -rawin`),
 * what OpenSSL signs payexport verifies, and the key id is the sha256 of the DER OpenSSL writes.
 * A byte changed in the manifest, another key, a cut signature: not held. The public keys kept
 * under a root: written once, 0644, read back by id; a file that is no Ed25519 key is named.
 */

const base = mkdtempSync(join(tmpdir(), 'payexport-signature-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));
const key = obtainSigningKey(join(base, 'config', 'signing-key.pem'));
const signer = manifestSigner(key);
const manifest = Buffer.from('{\n  "schema_version": 1,\n  "files": []\n}\n');

function openssl(args: string[]): string {
  return execFileSync('openssl', args, { stdio: ['ignore', 'pipe', 'pipe'] }).toString();
}

describe('the key id', () => {
  it('is ed25519: and the first 16 hex digits of the sha256 of the DER OpenSSL writes for the public key', () => {
    const pem = join(base, 'public.pem');
    writeFileSync(pem, key.publicKeyPem);
    const der = execFileSync('openssl', ['pkey', '-pubin', '-in', pem, '-outform', 'DER']);
    expect(key.keyId).toBe(`ed25519:${createHash('sha256').update(der).digest('hex').slice(0, 16)}`);
    expect(keyIdOf(createPublicKey(key.publicKeyPem))).toBe(key.keyId);
    expect(publicKeyFromPem(key.publicKeyPem).keyId).toBe(key.keyId);
    expect(publicKeyFileName(key.keyId)).toBe(`ed25519-${key.keyId.slice('ed25519:'.length)}.pem`);
  });

  it('publicKeyFromPem refuses an RSA public key and text that is no key', () => {
    const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 }).publicKey.export({ type: 'spki', format: 'pem' }) as string;
    expect(() => publicKeyFromPem(rsa)).toThrow(/not an Ed25519 public key \(rsa\)/);
    expect(() => publicKeyFromPem('hello')).toThrow();
  });
});

describe('the signature of a manifest', () => {
  it('what payexport signs, OpenSSL verifies; what OpenSSL signs, payexport verifies', () => {
    const dir = join(base, 'folder');
    mkdirSync(dir);
    writeFileSync(join(dir, 'manifest.json'), manifest);
    writeFileSync(join(dir, 'manifest.json.sig'), signer.sign(manifest));
    writeFileSync(join(dir, 'public.pem'), key.publicKeyPem);
    expect(readFileSync(join(dir, 'manifest.json.sig'))).toHaveLength(64);
    expect(openssl(['pkeyutl', '-verify', '-pubin', '-inkey', join(dir, 'public.pem'), '-rawin', '-in', join(dir, 'manifest.json'), '-sigfile', join(dir, 'manifest.json.sig')])).toMatch(/Signature Verified Successfully/);

    openssl(['pkeyutl', '-sign', '-inkey', key.path, '-rawin', '-in', join(dir, 'manifest.json'), '-out', join(dir, 'by-openssl.sig')]);
    expect(signatureHolds(manifest, readFileSync(join(dir, 'by-openssl.sig')), key.publicKey)).toBe(true);
    // pure Ed25519 is deterministic (RFC 8032): the same key over the same bytes, the same signature
    expect(readFileSync(join(dir, 'by-openssl.sig')).equals(readFileSync(join(dir, 'manifest.json.sig')))).toBe(true);
  });

  it('a byte changed, another key, a signature cut or lengthened: not held (never a throw)', () => {
    const signature = signer.sign(manifest);
    const changed = Buffer.from(manifest);
    changed[10] = changed[10]! ^ 1;
    expect(signatureHolds(changed, signature, key.publicKey)).toBe(false);
    expect(signatureHolds(manifest, signature, generateKeyPairSync('ed25519').publicKey)).toBe(false);
    expect(signatureHolds(manifest, signature.subarray(0, 63), key.publicKey)).toBe(false);
    expect(signatureHolds(manifest, Buffer.concat([signature, Buffer.alloc(1)]), key.publicKey)).toBe(false);
    expect(signatureHolds(manifest, Buffer.alloc(0), key.publicKey)).toBe(false);
  });

  it('the note the manifest carries names the key and the file, not the signature itself', () => {
    expect(signatureNote(signer)).toEqual({ algorithm: 'ed25519', key_id: key.keyId, file: 'manifest.json.sig' });
  });
});

describe('the public keys kept under a root', () => {
  it('written once as ed25519-<id>.pem, 0644, never the private key; read back by id; a file that is no Ed25519 key is named', async () => {
    const root = join(base, 'root');
    const path = await keepPublicKey(root, signer);
    expect(path).toBe(join(root, '.audit', 'keys', publicKeyFileName(key.keyId)));
    expect(readFileSync(path, 'utf8')).toBe(key.publicKeyPem);
    expect(statSync(path).mode & 0o777).toBe(0o644);
    const written = statSync(path).mtimeMs;
    expect(await keepPublicKey(root, signer)).toBe(path);
    expect(statSync(path).mtimeMs).toBe(written);
    expect(readFileSync(path, 'utf8')).not.toContain('PRIVATE');

    const other = manifestSigner(obtainSigningKey(join(base, 'config', 'rotated.pem')));
    await keepPublicKey(root, other);
    writeFileSync(join(root, '.audit', 'keys', 'rsa.pem'), generateKeyPairSync('rsa', { modulusLength: 1024 }).publicKey.export({ type: 'spki', format: 'pem' }));
    writeFileSync(join(root, '.audit', 'keys', 'notes.txt'), 'not a .pem: not read\n');
    const { keys, unreadable } = await rootPublicKeys(root);
    expect([...keys.keys()].sort()).toEqual([key.keyId, other.keyId].sort());
    expect(unreadable).toEqual([join('.audit', 'keys', 'rsa.pem')]);
    expect(readdirSync(join(root, '.audit', 'keys')).filter((n) => n.includes('.tmp-'))).toEqual([]);
    expect(await rootPublicKeys(join(base, 'no-root'))).toEqual({ keys: new Map(), unreadable: [] });
  });
});
