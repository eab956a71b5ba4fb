import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, describeRun, runCli, splitStderr, type CliResult } from '../support/cli/cli.js';
import { expectNoSecrets } from '../support/cli/secrets.js';
import { PLANTED_SECRETS, startTestSim, type TestSim } from '../support/cli/sim.js';
import { workspace } from '../support/cli/workspace.js';

/**
 * Each job command's happy path and `--dry-run`, with `--no-db` (a spool under the output folder),
 * against the simulator; then `verify` on what they wrote. One environment's key: the
 * single-environment case of docs/contracts.md#environments-and-keys.
 */

const ws = workspace('jobs');
let sim: TestSim;
let env: Record<string, string>;

beforeAll(async () => {
  assertBuilt();
  sim = await startTestSim();
  env = sim.env({ keyOf: 1 });
});

afterAll(async () => {
  await sim?.close();
  ws.remove();
});

function expectCompleted(args: readonly string[], result: CliResult, code = 0): Array<Record<string, unknown>> {
  const context = describeRun(args, result);
  expect(result.code, context).toBe(code);
  const { logs, plain } = splitStderr(result.stderr);
  expect(plain, context).toEqual([]);
  // JSON lines under a scheduler: one run id throughout, and the outcome last
  const runIds = new Set(logs.map((r) => r.run_id));
  expect(runIds.size, context).toBe(1);
  expect(logs.at(-1), context).toMatchObject({ level: 'info', exit_code: code });
  expectNoSecrets(PLANTED_SECRETS, { texts: [result.stdout, result.stderr] });
  return logs;
}

/** What the simulator served while `fn` ran: method and path per request. */
async function requestsDuring(fn: () => Promise<void>): Promise<string[]> {
  const before = sim.sim.requestLog.entries().length;
  await fn();
  return sim.sim.requestLog.entries().slice(before).map((e) => `${e.method} ${e.path}`);
}

describe('--dry-run prints the plan, exits 0 and writes nothing', () => {
  const plans: Array<[string, string[], RegExp[]]> = [
    ['export', ['export', '--from', '2026-10-01', '--to', '2026-10-31'], [/window\s+\[2026-10-01T00:00:00\.000000Z, 2026-11-01T00:00:00\.000000Z\) in UTC/]],
    ['nightly', ['nightly', '--date', '2026-11-20', '--tz', 'America/New_York'], [/window\s+\[2026-11-20T05:00:00\.000000Z, 2026-11-21T05:00:00\.000000Z\) in America\/New_York/, /payments sweep \[2026-11-13T05:00:00\.000000Z/]],
    ['month-end', ['month-end', '--month', '2026-10'], [/closes\s+2026-10 \(unless payments of it are still open/]],
  ];
  for (const [label, args, extra] of plans) {
    it(label, async () => {
      const cwd = ws.fresh(`dry-${label}`);
      const full = [...args, '--dry-run'];
      let result: CliResult | undefined;
      const requests = await requestsDuring(async () => {
        result = await runCli(full, { cwd, env });
      });
      expectCompleted(full, result!);
      const out = result!.stdout;
      expect(out).toMatch(new RegExp(`^plan for ${label} `));
      expect(out).toMatch(new RegExp(`organization\\s+${sim.sim.organizationId}`));
      expect(out).toMatch(new RegExp(`environments\\s+1 ${sim.sim.environments[1]!.id}`));
      const wallets = sim.sim.wallets.filter((w) => w.environmentId === sim.sim.environments[1]!.id);
      expect(out).toMatch(new RegExp(`wallets\\s+${wallets.length}\\n`));
      for (const wallet of wallets) expect(out).toContain(wallet.id);
      expect(out).toMatch(/streams\s+\d+ \(payments, ledger and summary per wallet/);
      expect(out).toMatch(/requests\s+~\d+ \(estimate\)/);
      for (const pattern of extra) expect(out).toMatch(pattern);
      // Only the wallet list, assets and summaries were asked: no payments, no ledgers.
      expect(requests.filter((r) => /\/payments(\?|$)|\/ledger/.test(r))).toEqual([]);
      expect(readdirSync(cwd), 'nothing written in the working directory').toEqual([]);
    });
  }

  it('says how payments would be read: the environment whole, or per wallet under --wallet', async () => {
    const october = ['export', '--from', '2026-10-01', '--to', '2026-10-31', '--dry-run'];
    const cwd = ws.fresh('dry-payments-read');
    writeFileSync(join(cwd, 'whole.json'), JSON.stringify({ paymentsRead: 'environment' }));
    const whole = await runCli([...october, '--config', 'whole.json'], { cwd, env });
    expectCompleted(october, whole);
    expect(whole.stdout).toMatch(/payments\s+environment-level read of 1 environment\(s\) \(~\d+ requests (fewer|more) than per wallet/);
    const wallet = sim.sim.wallets.find((w) => w.environmentId === sim.sim.environments[1]!.id)!;
    const one = await runCli([...october, '--config', 'whole.json', '--wallet', wallet.id], { cwd, env });
    expectCompleted(october, one);
    expect(one.stdout).toMatch(/payments\s+per wallet\n/);
  });

  it('report (reads the snapshot only; an absent embedded database stays absent)', async () => {
    const cwd = ws.fresh('dry-report');
    const args = ['report', '--month', '2026-10', '--dry-run'];
    const requests = await requestsDuring(async () => {
      const result = await runCli(args, { cwd, env });
      expectCompleted(args, result);
      expect(result.stdout).toMatch(/^plan for report 2026-10 \(dry run: no API calls/);
      expect(result.stdout).toMatch(/snapshot\s+embedded \(.*\/data\): EMPTY/);
    });
    expect(requests).toEqual([]);
    expect(readdirSync(cwd)).toEqual([]);
  });
});

describe('job commands with --no-db', () => {
  let monthDir = '';

  it('month-end: refuses to close October while payments of it are open (65), closes it with --allow-open (0)', async () => {
    const cwd = ws.fresh('month-end');
    const refused = ['month-end', '--month', '2026-10', '--no-db'];
    const first = await runCli(refused, { cwd, env });
    expectCompleted(refused, first, 65);
    expect(first.stdout).toMatch(/period\s+Not closed: [\d,]+ open items? .*open-items\.csv.* pass --allow-open/);
    expect(first.stdout).toMatch(/result\s+ties out, but the period is NOT CLOSED: .*open-items\.csv \(exit 65 — from open items, not from errors\)/);

    const args = [...refused, '--allow-open'];
    const result = await runCli(args, { cwd, env });
    const logs = expectCompleted(args, result);
    expect(result.stdout).not.toContain('NOT CLOSED');
    expect(result.stdout).toMatch(/period\s+Closed with [\d,]+ open items? carried into the next period/);
    expect(JSON.parse(readFileSync(join(cwd, 'reports/.state/closed-periods.json'), 'utf8'))).toHaveProperty([`${sim.sim.organizationId}/2026-10`]);
    expect(logs.map((r) => r.phase).filter(Boolean)).toEqual(['start', 'discovery', 'pull', 'report']);
    monthDir = join(cwd, 'reports/month-end/2026-10');
    expect(result.stdout).toContain(`files     ${monthDir}`);
    expect(result.stdout).toMatch(/^currency\s+payments\s+completed\s+principal\s+network fees\s+processing fees$/m);
    expect(result.stdout).toMatch(/^BTC\s+[\d,]+\s+[\d,]+\s+[\d,]+\.\d{11}\s/m);
    expect(result.stdout).toMatch(/result\s+complete; (every reconciliation check passed|no reconciliation errors)/);
    const manifest = JSON.parse(readFileSync(join(monthDir, 'manifest.json'), 'utf8')) as { command: string; run_id: string; window: unknown };
    expect(manifest).toMatchObject({ command: 'month-end', window: { from: '2026-10-01T00:00:00.000000Z', to: '2026-11-01T00:00:00.000000Z', tz: 'UTC' } });
    expect(manifest.run_id).toBe(logs[0]!.run_id);
    expectNoSecrets(PLANTED_SECRETS, { dirs: [cwd] });

    const verified = await runCli(['verify', monthDir], { cwd, env: {} });
    expect(verified.code, describeRun(['verify', monthDir], verified)).toBe(0);
    expect(verified.stdout).toMatch(new RegExp(`^verified \\d+ file\\(s\\) of run ${manifest.run_id}: sha256, bytes and rows match the manifest`));
  });

  it('verify exits 65 on a file changed after the run, naming it', async () => {
    const fees = join(monthDir, 'fees.csv');
    writeFileSync(fees, readFileSync(fees, 'utf8').replace(/\r\n$/, '\r\nextra,row\r\n'));
    const result = await runCli(['verify', monthDir], { cwd: ws.root, env: {} });
    expect(result.code, describeRun(['verify', monthDir], result)).toBe(65);
    expect(result.stdout).toMatch(/^MISMATCH \S+: fees\.csv: /m);
    expect(splitStderr(result.stderr).plain).toEqual([expect.stringMatching(/^payexport: .* does not match its manifest/)]);
  });

  it('nightly: one day in a time zone, with the look-back', async () => {
    const cwd = ws.fresh('nightly');
    const args = ['nightly', '--date', '2026-11-20', '--tz', 'America/New_York', '--no-db'];
    const result = await runCli(args, { cwd, env });
    expectCompleted(args, result);
    const manifest = JSON.parse(readFileSync(join(cwd, 'reports/nightly/2026-11-20/manifest.json'), 'utf8')) as { window: unknown };
    expect(manifest.window).toEqual({ from: '2026-11-20T05:00:00.000000Z', to: '2026-11-21T05:00:00.000000Z', tz: 'America/New_York' });
    expect(readdirSync(join(cwd, 'reports/.state/nightly/2026-11-20/streams')), 'pulled pages are spooled only until the run succeeds').toEqual([]);
  });

  it('export: CSV only, into --out', async () => {
    const cwd = ws.fresh('export');
    const args = ['export', '--from', '2026-11-01', '--to', '2026-11-07', '--format', 'csv', '--out', 'books', '--no-db'];
    const result = await runCli(args, { cwd, env });
    expectCompleted(args, result);
    const files = readdirSync(join(cwd, 'books/export/2026-11-01_2026-11-07')).sort();
    expect(files).toContain('payments.csv');
    expect(files).not.toContain('report.xlsx');
  });

  it('--print-config shows every value with its source and no secret', async () => {
    const cwd = ws.fresh('print-config');
    const args = ['export', '--from', '2026-10-01', '--to', '2026-10-31', '--tz', 'Europe/Berlin', '--print-config'];
    const result = await runCli(args, { cwd, env: { ...env, PAYEXPORT_OUT: 'env-out', DATABASE_URL: 'postgres://u:PLANTEDpw-x9@db/books' } });
    expect(result.code, describeRun(args, result)).toBe(0);
    const shown = JSON.parse(result.stdout) as Record<string, { value: unknown; source: string }>;
    expect(shown.tz).toEqual({ value: 'Europe/Berlin', source: 'flag' });
    expect(shown.out).toEqual({ value: 'env-out', source: 'env' });
    expect(shown.concurrency).toEqual({ value: 8, source: 'default' });
    expect(shown.credentials!.value).toEqual([{ environment: '*', scheme: 'api_key', value: '***' }]);
    expectNoSecrets([...PLANTED_SECRETS, 'PLANTEDpw-x9'], { texts: [result.stdout, result.stderr] });
  });
});
