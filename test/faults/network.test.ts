import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeRun, runCli, splitStderr, startCli, type CliResult } from '../support/cli/cli.js';
import { PLANTED_SECRETS, startTestSim, type TestSim } from '../support/cli/sim.js';
import { workspace } from '../support/cli/workspace.js';
import { closedPort } from '../support/cli/closed-port.js';
import { expectExit, expectFolderUnchanged, expectNoPartialFolders, expectPaymentsComplete, expectSameReport, folderBytes } from './support/invariants.js';
import { OCTOBER, PERIOD, TINY_RETRIES } from './support/setting.js';
import { startReferenceRun } from './support/reference-run.js';

/**
 * NET: the service or the network fails while the CLI runs (a TLS failure included). Each case asserts the documented exit
 * code with one secret-free stderr line, no partial folder, a previous good report of the period
 * byte for byte intact, and — once the service is back — a rerun that resumes and lists every
 * payment of the ground truth exactly once.
 */

const ws = workspace('faults-net');
const OPENSSL = (() => {
  try {
    execFileSync('openssl', ['version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();
let sim: TestSim;
let truth: string[];
/** a clean run's folder: what every later successful run must equal */
let reference: string;

beforeAll(async () => {
  ({ sim, truth, reference } = await startReferenceRun(ws));
});

afterAll(async () => {
  await sim?.close();
  ws.remove();
});

function withTinyRetries(label: string): string {
  const cwd = ws.fresh(label);
  writeFileSync(join(cwd, 'retries.json'), TINY_RETRIES);
  return cwd;
}

/**
 * A good export of October, then `endpoint` answering 503 beyond the retry budget: exit 69 naming
 * it in one secret-free line, the good folder untouched, no partial folder; once the service is
 * back, the rerun equals a clean run and lists every payment once. The two runs are returned for
 * what each case adds.
 */
async function failBeyondRetries(label: string, endpoint: string): Promise<{ failed: CliResult; rerun: CliResult }> {
  const cwd = withTinyRetries(label);
  const args = ['export', ...OCTOBER, '--no-db', '--config', 'retries.json'];
  expectExit(args, await runCli(args, { cwd, env: sim.env('token') }), 0);
  const final = join(cwd, 'reports/export', PERIOD);
  const before = folderBytes(final);

  sim.sim.setFaults(`503=1:retry-after=0,paths=*/${endpoint}`);
  let failed: CliResult;
  try {
    failed = await runCli(args, { cwd, env: sim.env('token') });
    expectExit(args, failed, 69, { message: new RegExp(`GET .*/${endpoint} → 503 read_temporarily_unavailable`), secrets: PLANTED_SECRETS, dirs: [cwd] });
    expect(splitStderr(failed.stderr).logs.filter((r) => r.msg === 'api retry').length, 'it retried before giving up').toBeGreaterThan(0);
  } finally {
    sim.sim.setFaults(null);
  }
  expectFolderUnchanged(final, before, 'the previous good report');
  expect(expectNoPartialFolders(join(cwd, 'reports'), 'export')).toEqual([PERIOD]);

  const rerun = await runCli(args, { cwd, env: sim.env('token') });
  expectExit(args, rerun, 0);
  expectSameReport(final, reference, `after the ${endpoint} 503s`);
  expectPaymentsComplete(final, truth, `after the ${endpoint} 503s`);
  return { failed, rerun };
}

const resumed = (run: CliResult): boolean => splitStderr(run.stderr).logs.some((r) => r.msg === 'resuming an interrupted run from its checkpoints');

describe('network faults through the CLI (--no-db)', () => {
  it('69: the ledger endpoints answer 503 beyond the retry budget; the previous report is untouched; the rerun resumes', async () => {
    const { rerun } = await failBeyondRetries('503-burst', 'ledger');
    // the payments pages that did arrive were kept: the rerun resumes instead of starting over
    expect(resumed(rerun)).toBe(true);
  });

  it("69: the wallets' fee policies answer 503 beyond the retry budget: discovery stops before any page is pulled, the previous report untouched, the rerun starts afresh and completes", async () => {
    const { rerun } = await failBeyondRetries('503-policies', 'policies');
    expect(resumed(rerun)).toBe(false);
  });

  it('75: the service closes mid-pull (connection refused); it comes back on the same port and the rerun completes', async () => {
    // A second simulator over the same data, slowed down so the pull is surely in progress when it closes.
    let flaky = await startTestSim({ dataset: sim.sim.dataset, faults: 'latency=30ms' });
    const port = flaky.sim.port;
    const cwd = withTinyRetries('refused-mid-pull');
    const args = ['export', ...OCTOBER, '--no-db', '--config', 'retries.json', '--page-size', '10'];
    try {
      const running = startCli(args, { cwd, env: flaky.env('token') });
      await running.waitForStderr(/"phase":"pull"/);
      while (flaky.sim.requestLog.entries().length < 25 && running.child.exitCode === null) await new Promise((resolve) => setTimeout(resolve, 20));
      await flaky.close();
      const failed = await running.result;
      expectExit(args, failed, 75, { message: /cannot reach the service \(connection refused\)/, secrets: PLANTED_SECRETS, dirs: [cwd] });
      expect(expectNoPartialFolders(join(cwd, 'reports'), 'export')).toEqual([]);

      flaky = await startTestSim({ dataset: sim.sim.dataset, port });
      const rerun = await runCli(args, { cwd, env: flaky.env('token') });
      expectExit(args, rerun, 0, { secrets: PLANTED_SECRETS, dirs: [cwd] });
      expect(splitStderr(rerun.stderr).logs.some((r) => r.msg === 'resuming an interrupted run from its checkpoints'), describeRun(args, rerun)).toBe(true);
      const final = join(cwd, 'reports/export', PERIOD);
      expectSameReport(final, reference, 'after the outage');
      expectPaymentsComplete(final, truth, 'after the outage');
    } finally {
      await flaky.close();
    }
  });

  it('75: nothing listens at the base URL (connection refused from the first request)', async () => {
    const cwd = withTinyRetries('refused');
    const args = ['export', ...OCTOBER, '--no-db', '--config', 'retries.json', '--base-url', `http://127.0.0.1:${await closedPort()}/v1`];
    expectExit(args, await runCli(args, { cwd, env: sim.env('token') }), 75, { message: /on 127\.0\.0\.1:\d+: cannot reach the service \(connection refused\)/, secrets: PLANTED_SECRETS, dirs: [cwd] });
    expect(expectNoPartialFolders(join(cwd, 'reports'), 'export')).toEqual([]);
  });

  it.skipIf(!OPENSSL)(`69: a self-signed certificate — refused at the handshake, never retried, no insecure fallback${OPENSSL ? '' : ' (skipped: no openssl to make a certificate)'}`, async () => {
    const dir = ws.fresh('tls-cert');
    execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem'), '-days', '1', '-subj', '/CN=127.0.0.1'], { stdio: 'ignore' });
    let handshakes = 0;
    let requests = 0;
    const server = createHttpsServer({ key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')) }, (_req, res) => {
      requests++;
      res.writeHead(200, { 'content-type': 'application/json' }).end('[]');
    });
    server.on('tlsClientError', () => handshakes++);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const cwd = ws.fresh('tls');
      const args = ['export', ...OCTOBER, '--no-db', '--base-url', `https://127.0.0.1:${(server.address() as AddressInfo).port}/v1`];
      expectExit(args, await runCli(args, { cwd, env: sim.env('token') }), 69, { message: /TLS handshake or certificate check failed/, secrets: PLANTED_SECRETS, dirs: [cwd] });
      // Discovery asks for the wallet list and the assets at once: one refused handshake per
      // request it started, never a retry, and no request ever reached the server.
      expect(requests, 'no request (the token never left)').toBe(0);
      expect(handshakes, 'one refused handshake per discovery request, no retry').toBeGreaterThanOrEqual(1);
      expect(handshakes, 'one refused handshake per discovery request, no retry').toBeLessThanOrEqual(2);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('75: the host name does not resolve (DNS failure)', async () => {
    const cwd = withTinyRetries('dns');
    // RFC 2606: .invalid never resolves, whatever the resolver (offline, it fails with EAI_AGAIN: also DNS).
    const args = ['export', ...OCTOBER, '--no-db', '--config', 'retries.json', '--base-url', 'http://payexport-fault-suite.invalid/v1'];
    expectExit(args, await runCli(args, { cwd, env: sim.env('token') }), 75, { message: /payexport-fault-suite\.invalid: cannot reach the service \(DNS lookup failed\)/, secrets: PLANTED_SECRETS, dirs: [cwd] });
    expect(expectNoPartialFolders(join(cwd, 'reports'), 'export')).toEqual([]);
  });
});
