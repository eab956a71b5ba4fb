/**
 * A planted API key never appears in any output of a run — log lines at debug level, the closing
 * summary, an error with its stack (--verbose), the report files — whatever the service does
 * (faults) and however the run ends. The CLI runs as a child process, as cron would run it.
 */
import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SimHandle } from '../../../src/sim/index.js';
import { runCli } from '../../support/extract/cli-child.js';
import { PLANTED_KEY, startSim } from '../../support/extract/harness.js';
import { childEnv, exportArgs } from '../../support/extract/kill-resume.js';

let sim: SimHandle;

beforeAll(async () => {
  sim = await startSim({ scale: 800 });
});
afterAll(async () => {
  await sim.close();
});

/** The key as it could leak: raw, URL-encoded, inside base64 at any alignment, or without its prefix. */
function leakForms(secret: string): string[] {
  const forms = [secret, encodeURIComponent(secret), secret.slice('vltg_'.length)];
  for (const shift of [0, 1, 2]) {
    const b64 = Buffer.from(`${'x'.repeat(shift)}${secret}`).toString('base64');
    forms.push(b64.slice(4, -4), Buffer.from(`${'x'.repeat(shift)}${secret}`).toString('base64url').slice(4, -4));
  }
  return forms;
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

function expectNoKey(texts: Record<string, string>): void {
  for (const [where, text] of Object.entries(texts)) {
    for (const form of leakForms(PLANTED_KEY)) expect(text.includes(form), `${where} holds a form of the key`).toBe(false);
  }
}

describe('the API key never leaks', () => {
  it('a run at debug level through every kind of fault', async () => {
    expect(sim.environments[0]!.apiKey).toBe(PLANTED_KEY);
    sim.setFaults('503=0.08,500=0.03,429=0.04:retry-after=1,reset=0.04,truncate=0.04,dup=0.1,seed=11');
    const out = mkdtempSync(join(tmpdir(), 'payexport-secrets-'));
    // About one request in five fails here, and which ones depends on the order requests arrive in;
    // twelve attempts keep a run from giving up on one unlucky request (this test is about leaks,
    // not about the retry budget, which test/faults covers).
    const config = join(out, 'config.json');
    writeFileSync(config, JSON.stringify({ retry: { maxAttempts: 12, maxDelayMs: 50 } }));
    const run = await runCli(sim, [...exportArgs(sim, out, ['--no-db']), '--verbose', '--config', config], { env: childEnv(sim) });
    sim.setFaults(null);
    expect([0, 65], run.stderr).toContain(run.code);
    // debug lines were written, and the faults were met and retried
    expect(run.stderr).toContain('"level":"debug"');
    expect(run.stderr).toContain('"msg":"api retry"');
    const files = Object.fromEntries(filesUnder(out).map((path) => [path, readFileSync(path, 'utf8')]));
    expect(Object.keys(files).some((p) => p.endsWith('payments.csv'))).toBe(true);
    expectNoKey({ stdout: run.stdout, stderr: run.stderr, ...files });
  });

  it('a run that fails (the service stays down), with the stack printed', async () => {
    sim.setFaults('503=1,paths=*/ledger');
    const out = mkdtempSync(join(tmpdir(), 'payexport-secrets-fail-'));
    const config = join(out, 'config.json');
    writeFileSync(config, JSON.stringify({ retry: { maxAttempts: 2, maxDelayMs: 10 } }));
    const run = await runCli(sim, [...exportArgs(sim, out, ['--no-db']), '--verbose', '--config', config], { env: childEnv(sim) });
    sim.setFaults(null);
    expect(run.code, run.stderr).toBe(69);
    expect(run.stderr).toContain('read_temporarily_unavailable');
    expect(run.stderr).toMatch(/\n\s+at /);
    expectNoKey({ stdout: run.stdout, stderr: run.stderr });
  });
});
