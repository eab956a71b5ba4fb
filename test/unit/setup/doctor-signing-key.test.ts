import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { keepPublicKey, manifestSigner } from '../../../src/audit/manifest-signature.js';
import { loadSigningKey } from '../../../src/audit/signing-key.js';
import { loadConfig, type Env } from '../../../src/config/load.js';
import type { CheckLine } from '../../../src/setup/doctor/check.js';
import { renderCheckLine } from '../../../src/setup/doctor/checklist.js';
import { signingKeyCheck } from '../../../src/setup/doctor/checks/signing-key.js';
import { SecretScrubber } from '../../../src/util/secret-scrubber.js';

/**
 * Doctor's signing key line: no key yet is ✓ (the first run creates it) and creates nothing; a key
 * made by OpenSSL is shown by the id OpenSSL's DER gives and by the PEM OpenSSL derives from it,
 * with where the output root keeps (or will keep) it; a key others can read, a file that is no key,
 * and a key git would commit are ✗ with their fix.
 */

const base = mkdtempSync(join(tmpdir(), 'payexport-doctor-key-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));
let n = 0;

async function check(prepare: (home: string) => Env = () => ({})): Promise<{ lines: CheckLine[]; text: string; home: string; keyFile: string }> {
  const home = join(base, `home-${++n}`);
  mkdirSync(home);
  const env: Env = { HOME: home, ...prepare(home) };
  const loaded = loadConfig({ flags: { baseUrl: 'http://127.0.0.1:9/v1', db: false, out: join(home, 'reports') }, env, cwd: home });
  const lines = await signingKeyCheck.run({ loaded, env, cwd: home, scrubber: new SecretScrubber(), now: () => new Date('2026-11-27T00:00:00Z') });
  return { lines, text: lines.flatMap(renderCheckLine).join('\n'), home, keyFile: join(home, '.config', 'payexport', 'signing-key.pem') };
}

/** An Ed25519 key written by OpenSSL, not by payexport, with the given mode. */
function opensslKey(path: string, mode: number): void {
  mkdirSync(join(path, '..'), { recursive: true, mode: 0o700 });
  execFileSync('openssl', ['genpkey', '-algorithm', 'ed25519', '-out', path]);
  chmodSync(path, mode);
}

describe('doctor: the signing key', () => {
  it('no key yet: ✓, names where the first run will create it, and creates nothing', async () => {
    const { lines, text, home, keyFile } = await check();
    expect(lines.map((l) => l.status)).toEqual(['pass']);
    expect(text).toBe(`  ✓ signing key: none yet: the first run that publishes a folder creates ${keyFile} (mode 600), or payexport init does`);
    expect(existsSync(join(home, '.config'))).toBe(false);
  });

  it("prints the key's id and its PEM as OpenSSL derives them, and where the root keeps its public half", async () => {
    let keyFile = '';
    const before = await check((home) => {
      keyFile = join(home, '.config', 'payexport', 'signing-key.pem');
      opensslKey(keyFile, 0o600);
      return {};
    });
    const pem = execFileSync('openssl', ['pkey', '-in', keyFile, '-pubout']).toString();
    const der = execFileSync('openssl', ['pkey', '-in', keyFile, '-pubout', '-outform', 'DER']);
    const id = `ed25519:${createHash('sha256').update(der).digest('hex').slice(0, 16)}`;
    const kept = join(before.home, 'reports', '.audit', 'keys', `${id.replace(':', '-')}.pem`);
    expect(before.lines.map((l) => l.status)).toEqual(['pass']);
    const [head, ...rest] = before.text.split('\n');
    expect(head).toBe(`  ✓ signing key ${id}: ${keyFile}, only its owner can read it; its public half goes to ${kept} with the next run that publishes. Hand the auditor the id or this PEM by another channel than the books (docs/audit.md#the-signing-key):`);
    expect(rest.map((l) => l.trim()).join('\n')).toBe(pem.trim());
    expect(rest.every((l) => l.startsWith('      '))).toBe(true);
    // no private key material in what doctor prints
    const secret = execFileSync('openssl', ['pkey', '-in', keyFile, '-outform', 'DER']).toString('base64');
    expect(before.text).not.toContain(secret.slice(-40));
    expect(existsSync(kept)).toBe(false);

    // once a run kept the public half under the root, the line names that file
    await keepPublicKey(join(before.home, 'reports'), manifestSigner(loadSigningKey(keyFile)!));
    const lines = await signingKeyCheck.run({ loaded: loadConfig({ flags: { baseUrl: 'http://127.0.0.1:9/v1', db: false, out: join(before.home, 'reports') }, env: { HOME: before.home }, cwd: before.home }), env: { HOME: before.home }, cwd: before.home, scrubber: new SecretScrubber(), now: () => new Date() });
    expect(lines.flatMap(renderCheckLine)[0]).toContain(`its public half is ${kept}.`);
  });

  it('a key others can read: ✗ with chmod 600 (every run that publishes would stop with exit 78)', async () => {
    const { lines, text, keyFile } = await check((home) => (opensslKey(join(home, '.config', 'payexport', 'signing-key.pem'), 0o644), {}));
    expect(lines.map((l) => l.status)).toEqual(['fail']);
    expect(text).toContain(`is readable by others (mode 644)`);
    expect(text).toContain(`fix: chmod 600 '${keyFile}'`);
  });

  it('PAYEXPORT_SIGNING_KEY_FILE naming a file that is no key: ✗, the fix says to move it aside or point at the key', async () => {
    const { lines, text } = await check((home) => {
      const path = join(home, 'not-a-key.pem');
      writeFileSync(path, 'hello\n', { mode: 0o600 });
      return { PAYEXPORT_SIGNING_KEY_FILE: path };
    });
    expect(lines.map((l) => l.status)).toEqual(['fail']);
    expect(text).toMatch(/does not hold a private key\n {6}fix: point PAYEXPORT_SIGNING_KEY_FILE at the installation's key, or move .* aside/);
  });

  it('a key inside a git checkout that does not ignore it: ✗, keep it outside any checkout', async () => {
    const { lines, text } = await check((home) => {
      const repo = join(home, 'books-repo');
      mkdirSync(repo);
      execFileSync('git', ['init', '-q', repo]);
      opensslKey(join(repo, 'signing-key.pem'), 0o600);
      return { PAYEXPORT_SIGNING_KEY_FILE: join(repo, 'signing-key.pem') };
    });
    expect(lines.map((l) => l.status)).toEqual(['fail']);
    expect(text).toMatch(/inside the checkout .*books-repo, where git add \. would commit it\n {6}fix: keep it outside any checkout/);
  });
});
