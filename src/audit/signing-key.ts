/**
 * The installation's Ed25519 signing key (docs/audit.md#the-signing-key). It is kept like the API
 * key: outside any checkout, in the user's configuration folder (`$XDG_CONFIG_HOME/payexport/`,
 * else `~/.config/payexport/`; folder 0700, file 0600), or where `PAYEXPORT_SIGNING_KEY_FILE` says.
 * It is created by `init` or on first need, never logged, never put in a report folder and never
 * delivered: only its public half and its id travel.
 *
 * The key id is `ed25519:` and the first 16 hex digits of the sha256 of the public key's DER
 * (SubjectPublicKeyInfo), so an auditor recomputes it from the PEM with
 * `openssl pkey -pubin -in KEY.pem -outform DER | sha256sum`.
 */
import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { chmodSync, closeSync, fsyncSync, linkSync, openSync, readFileSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import type { Env } from '../config/load.js';
import { ensureFolderSync } from '../util/ensure-folder.js';
import { configError } from '../util/errors.js';
import { keyIdOf } from './public-key.js';

export const SIGNING_KEY_ENV = 'PAYEXPORT_SIGNING_KEY_FILE';
const KEY_FILE_NAME = 'signing-key.pem';

export interface SigningKey {
  keyId: string;
  privateKey: KeyObject;
  publicKey: KeyObject;
  /** the public key as PEM (SubjectPublicKeyInfo): what an auditor is handed */
  publicKeyPem: string;
  path: string;
}

/** Where the installation's key lives: `PAYEXPORT_SIGNING_KEY_FILE`, else the user's configuration folder. */
export function signingKeyPath(env: Env, cwd: string): string {
  const named = env[SIGNING_KEY_ENV];
  if (named !== undefined && named.trim() !== '') return resolve(cwd, named.trim());
  const xdg = env.XDG_CONFIG_HOME;
  const home = env.HOME !== undefined && env.HOME !== '' ? env.HOME : homedir();
  return join(xdg !== undefined && isAbsolute(xdg) ? xdg : join(home, '.config'), 'payexport', KEY_FILE_NAME);
}

/** The key at `path`, or null when there is none yet. A file others can read, or not a key, is exit 78. */
export function loadSigningKey(path: string): SigningKey | null {
  let mode: number;
  try {
    mode = statSync(path).mode;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw configError('signing_key_unreadable', `the signing key file '${path}' cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`, { path });
  }
  if ((mode & 0o077) !== 0) {
    throw configError('signing_key_permissions', `the signing key file '${path}' is readable by others (mode ${(mode & 0o777).toString(8)}); run chmod 600 '${path}'`, { path });
  }
  let privateKey: KeyObject;
  try {
    privateKey = createPrivateKey(readFileSync(path));
  } catch {
    throw configError('signing_key_invalid', `the signing key file '${path}' does not hold a private key`, { path });
  }
  if (privateKey.asymmetricKeyType !== 'ed25519') throw configError('signing_key_invalid', `the signing key file '${path}' holds a ${privateKey.asymmetricKeyType ?? 'unknown'} key, not Ed25519`, { path });
  return fromPrivate(privateKey, path);
}

/**
 * The key at `path`, created when there is none (`created: true`). Creation is exclusive: two
 * runs starting together end up with the same key, and a kill leaves either no key or a whole one.
 */
export function obtainSigningKey(path: string): SigningKey & { created: boolean } {
  const existing = loadSigningKey(path);
  if (existing !== null) return { ...existing, created: false };
  const folder = dirname(path);
  ensureFolderSync(folder, 0o700);
  const { privateKey } = generateKeyPairSync('ed25519');
  const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }) as string;
  const temp = `${path}.tmp-${process.pid}`;
  const fd = openSync(temp, 'wx', 0o600);
  try {
    writeSync(fd, pem);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  chmodSync(temp, 0o600);
  try {
    linkSync(temp, path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    // another run created it first: that one is the installation's key
    unlinkSync(temp);
    const theirs = loadSigningKey(path);
    if (theirs === null) throw error;
    return { ...theirs, created: false };
  }
  unlinkSync(temp);
  fsyncFolder(folder);
  return { ...fromPrivate(privateKey, path), created: true };
}

function fromPrivate(privateKey: KeyObject, path: string): SigningKey {
  const publicKey = createPublicKey(privateKey);
  return { keyId: keyIdOf(publicKey), privateKey, publicKey, publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }) as string, path };
}

function fsyncFolder(folder: string): void {
  const fd = openSync(folder, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
