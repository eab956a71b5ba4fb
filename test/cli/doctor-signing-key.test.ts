import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, describeRun, runCli } from '../support/cli/cli.js';
import { closedPort } from '../support/cli/closed-port.js';
import { workspace } from '../support/cli/workspace.js';

/**
 * `payexport doctor` prints the installation's public key for the auditor (docs/audit.md#the-signing-key),
 * through the real command line: the key (made here by OpenSSL, in the user configuration folder
 * of HOME) is shown by the id and the PEM OpenSSL derives from it, with the hand-over; the other
 * checks may fail (no service listens), the key's line does not depend on them.
 */

const ws = workspace('doctor-signing-key');
beforeAll(() => assertBuilt());
afterAll(() => ws.remove());

describe('payexport doctor: the signing key', () => {
  it("prints the key's id and public PEM, and how to hand them to the auditor", async () => {
    const cwd = ws.fresh('key');
    const keyFile = join(cwd, '.config', 'payexport', 'signing-key.pem');
    mkdirSync(join(cwd, '.config', 'payexport'), { recursive: true, mode: 0o700 });
    execFileSync('openssl', ['genpkey', '-algorithm', 'ed25519', '-out', keyFile]);
    chmodSync(keyFile, 0o600);
    writeFileSync(join(cwd, 'payexport.json'), JSON.stringify({ baseUrl: `http://127.0.0.1:${await closedPort()}/v1`, organization: '00000000-0000-4000-8000-000000000001', tz: 'UTC', out: 'reports', dataDir: 'data' }));
    const result = await runCli(['doctor', '--config', 'payexport.json', '--no-db'], { cwd, env: { PAYEXPORT_API_KEY: 'vltg_doctor-signing-key-test' } });
    const der = execFileSync('openssl', ['pkey', '-in', keyFile, '-pubout', '-outform', 'DER']);
    const id = `ed25519:${createHash('sha256').update(der).digest('hex').slice(0, 16)}`;
    const pem = execFileSync('openssl', ['pkey', '-in', keyFile, '-pubout']).toString().trim().split('\n');
    const lines = result.stdout.split('\n');
    const at = lines.findIndex((l) => l.startsWith(`  ✓ signing key ${id}: `));
    expect(at, describeRun(['doctor'], result)).toBeGreaterThan(0);
    expect(lines[at]).toContain(`${keyFile}, only its owner can read it; its public half goes to reports/.audit/keys/${id.replace(':', '-')}.pem with the next run that publishes. Hand the auditor the id or this PEM by another channel than the books`);
    expect(lines.slice(at + 1, at + 1 + pem.length).map((l) => l.trim())).toEqual(pem);
  }, 120_000);
});
