import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, describeRun, runCli } from '../support/cli/cli.js';
import { expectNoSecrets } from '../support/cli/secrets.js';
import { PLANTED_KEYS, PLANTED_SECRETS, startTestSim, type TestSim } from '../support/cli/sim.js';
import { workspace } from '../support/cli/workspace.js';

/**
 * `payexport init` makes the installation's signing key (docs/audit.md#the-signing-key) and says
 * where it is, through the real command line (HOME is the working folder): kept like the API key —
 * the user configuration folder, 0700 and 0600, ignored by git when the home folder sits in a
 * checkout — and never printed; OpenSSL reads it as an Ed25519 key and derives the id init printed.
 * Then doctor prints that key's public PEM, the first month-end signs with it and keeps that PEM
 * under the root, and `init --force` keeps the key. A key others can read stops init before
 * anything is written.
 */

const ws = workspace('init-signing-key');
let sim: TestSim;
beforeAll(async () => {
  assertBuilt();
  sim = await startTestSim();
});
afterAll(async () => {
  await sim?.close();
  ws.remove();
});

const flags = (): string[] => ['init', '--yes', '--base-url', sim.sim.baseUrl, '--organization', sim.sim.organizationId, '--tz', 'America/New_York', '--no-books'];
const env = (): Record<string, string> => ({ PAYEXPORT_API_KEY: PLANTED_KEYS[0] });
const keyFileIn = (home: string): string => join(home, '.config', 'payexport', 'signing-key.pem');

function opensslId(keyFile: string): string {
  const der = execFileSync('openssl', ['pkey', '-in', keyFile, '-pubout', '-outform', 'DER']);
  return `ed25519:${createHash('sha256').update(der).digest('hex').slice(0, 16)}`;
}

describe('payexport init: the signing key', () => {
  it('creates it where the API key would go, 0600, says where and its id; doctor prints its public half; the first month-end signs with it; --force keeps it', async () => {
    const cwd = ws.fresh('fresh');
    const init = await runCli(flags(), { cwd, env: env() });
    expect(init.code, describeRun(flags(), init)).toBe(0);
    const keyFile = keyFileIn(cwd);
    expect(statSync(keyFile).mode & 0o777).toBe(0o600);
    expect(statSync(join(cwd, '.config', 'payexport')).mode & 0o777).toBe(0o700);
    expect(execFileSync('openssl', ['pkey', '-in', keyFile, '-noout', '-text']).toString()).toMatch(/^ED25519 Private-Key:/m);
    const id = opensslId(keyFile);
    expect(init.stdout).toContain(`Signing key ${id}: ${keyFile}, created now (Ed25519, mode 600). Every report folder's manifest is signed with it; it is never logged or delivered.`);
    expect(init.stdout).toMatch(/^ {2}Its public half is what an auditor checks the signatures with: payexport doctor prints it/m);
    const privateDer = execFileSync('openssl', ['pkey', '-in', keyFile, '-outform', 'DER']).toString('base64');
    const privatePem = readFileSync(keyFile, 'utf8').split('\n')[1]!;
    expectNoSecrets([...PLANTED_SECRETS, privatePem, privateDer], { texts: [init.stdout, init.stderr], dirs: [join(cwd, 'config')] });

    const pem = execFileSync('openssl', ['pkey', '-in', keyFile, '-pubout']).toString().trim().split('\n');
    const doctor = await runCli(['doctor'], { cwd, env: env() });
    const lines = doctor.stdout.split('\n');
    const at = lines.findIndex((l) => l.startsWith(`  ✓ signing key ${id}: ${keyFile}, only its owner can read it`));
    expect(at, describeRun(['doctor'], doctor)).toBeGreaterThan(0);
    expect(lines.slice(at + 1, at + 1 + pem.length).map((l) => l.trim())).toEqual(pem);

    const args = ['month-end', '--month', '2026-10', '--allow-open', '--format', 'csv'];
    const monthEnd = await runCli(args, { cwd, env: env() });
    expect([0, 65], describeRun(args, monthEnd)).toContain(monthEnd.code);
    const root = join(cwd, 'reports', `org-${sim.sim.organizationId.slice(0, 8)}`);
    const manifest = JSON.parse(readFileSync(join(root, 'month-end', '2026-10', 'manifest.json'), 'utf8')) as { signature: { key_id: string } };
    expect(manifest.signature.key_id).toBe(id);
    const kept = join(root, '.audit', 'keys', `${id.replace(':', '-')}.pem`);
    expect(readFileSync(kept, 'utf8').trim().split('\n')).toEqual(pem);
    const after = await runCli(['doctor'], { cwd, env: env() });
    expect(after.stdout).toContain(`its public half is reports/org-${sim.sim.organizationId.slice(0, 8)}/.audit/keys/${id.replace(':', '-')}.pem.`);

    const before = readFileSync(keyFile);
    const again = await runCli([...flags(), '--force'], { cwd, env: env() });
    expect(again.code, describeRun(flags(), again)).toBe(0);
    expect(again.stdout).toContain(`Signing key ${id}: ${keyFile}, kept (made by an earlier run or init).`);
    expect(readFileSync(keyFile).equals(before)).toBe(true);
  }, 240_000);

  it('a home folder inside a git checkout: the key is ignored by git before it is written', async () => {
    const cwd = ws.fresh('home-in-checkout');
    execFileSync('git', ['init', '-q', cwd]);
    const init = await runCli(flags(), { cwd, env: env() });
    expect(init.code, describeRun(flags(), init)).toBe(0);
    const gitignore = join(cwd, '.config', 'payexport', '.gitignore');
    expect(init.stdout).toContain(`; ${gitignore} now keeps it out of git.`);
    expect(readFileSync(gitignore, 'utf8')).toBe('/signing-key.pem\n');
    // git's own answer: `git add -A` would not take it
    const added = execFileSync('git', ['-C', cwd, 'add', '-A', '--dry-run'], { encoding: 'utf8' });
    expect(added).toMatch(/config\/payexport\.json/);
    expect(added).not.toMatch(/signing-key\.pem/);
  }, 120_000);

  it('a key others can read: exit 78 before any question, nothing written', async () => {
    const cwd = ws.fresh('wide-key');
    mkdirSync(join(cwd, '.config', 'payexport'), { recursive: true, mode: 0o700 });
    execFileSync('openssl', ['genpkey', '-algorithm', 'ed25519', '-out', keyFileIn(cwd)]);
    chmodSync(keyFileIn(cwd), 0o644);
    const init = await runCli(flags(), { cwd, env: env() });
    expect(init.code, describeRun(flags(), init)).toBe(78);
    expect(init.stderr.trim().split('\n')).toEqual([`payexport: the signing key file '${keyFileIn(cwd)}' is readable by others (mode 644); run chmod 600 '${keyFileIn(cwd)}'`]);
    expect(readdirSync(cwd)).toEqual(['.config']);
    expect(existsSync(join(cwd, 'config'))).toBe(false);
  }, 60_000);
});
