import { execFileSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { loadSigningKey, obtainSigningKey, signingKeyPath } from '../../../src/audit/signing-key.js';
import { AppError } from '../../../src/util/errors.js';
import { ExitCode } from '../../../src/util/exit-codes.js';

/**
 * The installation's signing key on its own (docs/audit.md#the-signing-key): where it lives, how
 * it is made (0600 in a 0700 folder, an Ed25519 key OpenSSL reads), what a second call and two
 * processes started together get (the same key), and the refusals (wider than 0600, not a key, not
 * Ed25519) as configuration errors, exit 78.
 */

const base = mkdtempSync(join(tmpdir(), 'payexport-signing-key-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));
let n = 0;
const fresh = (): string => {
  const dir = join(base, String(++n));
  mkdirSync(dir);
  return dir;
};

function refusal(path: string): AppError {
  try {
    loadSigningKey(path);
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error(`${path} was accepted`);
}

describe('signingKeyPath', () => {
  it('PAYEXPORT_SIGNING_KEY_FILE first (relative to the working folder), then $XDG_CONFIG_HOME, then ~/.config', () => {
    expect(signingKeyPath({ PAYEXPORT_SIGNING_KEY_FILE: ' keys/k.pem ', XDG_CONFIG_HOME: '/x', HOME: '/h' }, '/work')).toBe('/work/keys/k.pem');
    expect(signingKeyPath({ PAYEXPORT_SIGNING_KEY_FILE: '', XDG_CONFIG_HOME: '/x', HOME: '/h' }, '/work')).toBe('/x/payexport/signing-key.pem');
    // the XDG base directory spec: a relative XDG_CONFIG_HOME is invalid and ignored
    expect(signingKeyPath({ XDG_CONFIG_HOME: 'relative', HOME: '/h' }, '/work')).toBe('/h/.config/payexport/signing-key.pem');
    expect(signingKeyPath({ HOME: '/h' }, '/work')).toBe('/h/.config/payexport/signing-key.pem');
  });
});

describe('obtainSigningKey and loadSigningKey', () => {
  it('none yet: null; then made 0600 in a 0700 folder, an Ed25519 key OpenSSL reads with the same id; the second call keeps it', () => {
    const path = join(fresh(), 'cfg', 'payexport', 'signing-key.pem');
    expect(loadSigningKey(path)).toBeNull();
    const made = obtainSigningKey(path);
    expect(made.created).toBe(true);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(statSync(join(path, '..')).mode & 0o777).toBe(0o700);
    expect(readdirSync(join(path, '..'))).toEqual(['signing-key.pem']);
    expect(execFileSync('openssl', ['pkey', '-in', path, '-noout', '-text']).toString()).toMatch(/^ED25519 Private-Key:/m);
    const der = execFileSync('openssl', ['pkey', '-in', path, '-pubout', '-outform', 'DER']);
    expect(made.keyId).toBe(`ed25519:${createHash('sha256').update(der).digest('hex').slice(0, 16)}`);
    expect(made.publicKeyPem).toBe(execFileSync('openssl', ['pkey', '-in', path, '-pubout']).toString());
    const before = readFileSync(path);
    const again = obtainSigningKey(path);
    expect(again.created).toBe(false);
    expect(again.keyId).toBe(made.keyId);
    expect(readFileSync(path).equals(before)).toBe(true);
  });

  it('a key made by OpenSSL is taken as it is', () => {
    const path = join(fresh(), 'k.pem');
    execFileSync('openssl', ['genpkey', '-algorithm', 'ed25519', '-out', path]);
    chmodSync(path, 0o600);
    const key = obtainSigningKey(path);
    expect(key.created).toBe(false);
    expect(key.publicKeyPem).toBe(execFileSync('openssl', ['pkey', '-in', path, '-pubout']).toString());
  });

  it('refuses a key others can read, a file that is not a key and a key that is not Ed25519: exit 78, the path named', () => {
    const dir = fresh();
    const wide = join(dir, 'wide.pem');
    execFileSync('openssl', ['genpkey', '-algorithm', 'ed25519', '-out', wide]);
    chmodSync(wide, 0o640);
    const garbage = join(dir, 'garbage.pem');
    writeFileSync(garbage, 'not a key\n', { mode: 0o600 });
    const rsa = join(dir, 'rsa.pem');
    execFileSync('openssl', ['genpkey', '-algorithm', 'RSA', '-pkeyopt', 'rsa_keygen_bits:1024', '-out', rsa]);
    chmodSync(rsa, 0o600);
    const cases: Array<[string, string, RegExp]> = [
      [wide, 'signing_key_permissions', /is readable by others \(mode 640\); run chmod 600 '.*wide\.pem'/],
      [garbage, 'signing_key_invalid', /does not hold a private key/],
      [rsa, 'signing_key_invalid', /holds a rsa key, not Ed25519/],
    ];
    for (const [path, type, message] of cases) {
      const error = refusal(path);
      expect(error.type).toBe(type);
      expect(error.exitCode).toBe(ExitCode.config);
      expect(error.message).toMatch(message);
      expect(error.message).toContain(path);
      // obtain refuses the same file rather than replacing it
      expect(() => obtainSigningKey(path)).toThrow(error.message);
    }
  });

  it('processes started together end up with one key: exactly one made it, every one holds its id, no temporary file left', async () => {
    const path = join(fresh(), 'payexport', 'signing-key.pem');
    const module = fileURLToPath(new URL('../../../src/audit/signing-key.ts', import.meta.url));
    const script = `import { obtainSigningKey } from ${JSON.stringify(module)}; const k = obtainSigningKey(${JSON.stringify(path)}); console.log(JSON.stringify({ id: k.keyId, created: k.created }));`;
    const one = (): Promise<{ id: string; created: boolean }> =>
      new Promise((resolve, reject) => {
        const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'pipe'] });
        let out = '';
        let err = '';
        child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
        child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
        child.on('close', (code) => (code === 0 ? resolve(JSON.parse(out) as { id: string; created: boolean }) : reject(new Error(`exit ${code}: ${err}`))));
      });
    const results = await Promise.all([one(), one(), one(), one()]);
    expect(new Set(results.map((r) => r.id)).size).toBe(1);
    expect(results.filter((r) => r.created)).toHaveLength(1);
    expect(results[0]!.id).toBe(loadSigningKey(path)!.keyId);
    expect(readdirSync(join(path, '..'))).toEqual(['signing-key.pem']);
  }, 60_000);
});
