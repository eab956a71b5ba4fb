import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliBounded } from '../support/cli/bounded-run.js';
import { assertBuilt, runCli, startCli } from '../support/cli/cli.js';
import { PLANTED_SECRETS, type TestSim } from '../support/cli/sim.js';
import { silentPort } from '../support/cli/silent-port.js';
import { workspace } from '../support/cli/workspace.js';
import type { Handler } from '../support/api/fake-api-server.js';
import { withFakeApi } from '../support/api/serve-fake-api.js';
import { expectExit } from './support/invariants.js';
import { OCTOBER, startOctoberSim } from './support/setting.js';

/**
 * Issue 15: inputs that used to hang or answer wrongly, and the signal contract of every loop that
 * waits (docs/reliability.md "Every bad input answered"): SIGINT / SIGTERM end the run with 75
 * within SIGNAL_BOUND_MS, leaving no report folder and no temp folder. The bound is the contract's
 * (5 s), not a speed measure: what it guards against is a run that waits a minute or for ever.
 */
const SIGNAL_BOUND_MS = 5_000;
/** a run that should answer at once is killed after this (it used to spin for ever) */
const HANG_BOUND_MS = 20_000;
const procfs = existsSync('/proc/self') ? null : 'no procfs on this machine';
const ws = workspace('answers-and-stops');
let sim: TestSim;

beforeAll(async () => {
  assertBuilt();
  sim = await startOctoberSim();
});

afterAll(async () => {
  await sim?.close();
  ws.remove();
});

/** Nothing but an (empty) output root and the --no-db spool's state: no report, no temp folder. */
function expectNoReport(cwd: string): void {
  const out = join(cwd, 'reports');
  if (!existsSync(out)) return;
  const jobs = readdirSync(out).filter((name) => name !== '.state');
  for (const job of jobs) expect(readdirSync(join(out, job)), `report folders under ${out}/${job}`).toEqual([]);
}

describe('three answers that were wrong', () => {
  it.skipIf(procfs !== null)(`74, at once, for an output folder under /proc (it used to spin a core for ever)${procfs ? ` — skipped: ${procfs}` : ''}`, async () => {
    const cwd = ws.fresh('proc-out');
    const args = ['export', ...OCTOBER, '--no-db', '--out', '/proc/payexport-forbidden'];
    const { result } = await runCliBounded(args, { cwd, env: sim.env('token') }, HANG_BOUND_MS);
    if (result === null) throw new Error(`payexport ${args.join(' ')} did not answer within ${HANG_BOUND_MS} ms (killed)`);
    expectExit(args, result, 74, { message: /cannot write to the output folder '\/proc\/payexport-forbidden' \(ENOENT\): mkdir '\/proc\/payexport-forbidden' failed/, secrets: PLANTED_SECRETS, dirs: [cwd] });
  });

  it.skipIf(procfs !== null)(`74 for an embedded database folder under /proc${procfs ? ` — skipped: ${procfs}` : ''}`, async () => {
    const cwd = ws.fresh('proc-data');
    const args = ['export', ...OCTOBER, '--data-dir', '/proc/payexport-forbidden/data'];
    const { result } = await runCliBounded(args, { cwd, env: sim.env('token') }, HANG_BOUND_MS);
    if (result === null) throw new Error(`payexport ${args.join(' ')} did not answer within ${HANG_BOUND_MS} ms (killed)`);
    expectExit(args, result, 74, { message: /cannot create the folder of the lock file '\/proc\/payexport-forbidden\/data\/embedded\.lock' \(ENOENT\)/ });
    expectNoReport(cwd);
  });

  it('64 for verify of a folder that does not exist, saying so (not "does not match its manifest")', async () => {
    const cwd = ws.fresh('verify-missing');
    const args = ['verify', join(cwd, 'nonexistent')];
    const result = await runCli(args, { cwd });
    expectExit(args, result, 64, { message: /no folder '.*nonexistent': verify needs a report folder/ });
    expect(result.stdout).toBe('');
  });

  it('64 for verify of a folder that is not a report (no manifest.json), and of a file', async () => {
    const cwd = ws.fresh('verify-not-report');
    mkdirSync(join(cwd, 'photos'));
    writeFileSync(join(cwd, 'photos', 'cat.jpg'), 'meow');
    const folder = ['verify', join(cwd, 'photos')];
    expectExit(folder, await runCli(folder, { cwd }), 64, { message: /'.*photos' is not a report folder: it has no manifest\.json/ });
    const file = ['verify', join(cwd, 'photos', 'cat.jpg')];
    expectExit(file, await runCli(file, { cwd }), 64, { message: /'.*cat\.jpg' is a file, not a report folder/ });
  });

  it.each([
    ['--concurrency', 'abc'],
    ['--page-size', '12abc'],
    ['--lookback-days', 'seven'],
  ])('64 echoing what was typed: %s %s', async (flag, value) => {
    const cwd = ws.fresh('whole-number');
    const args = ['nightly', '--date', '2026-10-15', '--no-db', flag, value];
    const result = await runCli(args, { cwd, env: sim.env('token') });
    expectExit(args, result, 64, { message: new RegExp(`invalid ${flag} '${value}' \\(expected a whole number\\)`) });
    expect(result.stderr).not.toContain('NaN');
  });
});

describe('a flag given twice (found by the generated suite: exit 1)', () => {
  it('64 for a single-valued flag, naming it', async () => {
    const cwd = ws.fresh('twice');
    const args = ['nightly', '--date', '2026-10-15', '--no-db', '--tz', 'UTC', '--tz', 'America/New_York'];
    expectExit(args, await runCli(args, { cwd, env: sim.env('token') }), 64, { message: /--tz is given 2 times; give it once/ });
  });

  it('--format may repeat: csv and xlsx', async () => {
    const cwd = ws.fresh('format-twice');
    const args = ['export', ...OCTOBER, '--no-db', '--format', 'csv', '--format', 'xlsx', '--dry-run'];
    const result = await runCli(args, { cwd, env: sim.env('token') });
    expectExit(args, result, 0);
    expect(result.stdout).toMatch(/\(csv, xlsx\)/);
  });
});

describe('SIGTERM / SIGINT during every wait: 75 within the bound, nothing partial', () => {
  it.each(['SIGTERM', 'SIGINT'] as const)('%s during the API backoff (429 with Retry-After: 60)', async (signal) => {
    const rateLimited: Handler = (_req, res) => {
      res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '60' });
      res.end(JSON.stringify({ error: { type: 'rate_limited', detail: 'slow down' } }));
    };
    await withFakeApi(rateLimited, async (api) => {
      const cwd = ws.fresh(`backoff-${signal}`);
      const args = ['export', ...OCTOBER, '--no-db', '--log-format', 'json'];
      const run = startCli(args, { cwd, env: { ...sim.env('token'), PAYEXPORT_BASE_URL: api.baseUrl } });
      await run.waitForStderr(/"msg":"api retry"/);
      const sentAt = Date.now();
      run.child.kill(signal);
      const result = await run.result;
      const tookMs = Date.now() - sentAt;
      expectExit(args, result, 75, { message: new RegExp(`interrupted by ${signal}; run again with the same arguments to resume$`), secrets: PLANTED_SECRETS, dirs: [cwd] });
      expect(tookMs, `exit ${tookMs} ms after ${signal}`).toBeLessThan(SIGNAL_BOUND_MS);
      expectNoReport(cwd);
    });
  });

  it('SIGTERM while the database connection hangs: the watchdog stops the run', async () => {
    const db = await silentPort();
    try {
      const cwd = ws.fresh('db-hang');
      const args = ['export', ...OCTOBER, '--log-format', 'json'];
      const run = startCli(args, { cwd, env: { ...sim.env('token'), DATABASE_URL: `postgres://payexport@127.0.0.1:${db.port}/books` } });
      await db.connected;
      const sentAt = Date.now();
      run.child.kill('SIGTERM');
      const result = await run.result;
      const tookMs = Date.now() - sentAt;
      expectExit(args, result, 75, { message: /interrupted by SIGTERM; run again with the same arguments to resume \(cleanup did not finish within 3 s: stopped without waiting\)/, secrets: PLANTED_SECRETS, dirs: [cwd] });
      expect(tookMs, `exit ${tookMs} ms after SIGTERM`).toBeLessThan(SIGNAL_BOUND_MS);
      expectNoReport(cwd);
    } finally {
      await db.close();
    }
  });

  it('a second SIGTERM stops at once', async () => {
    const db = await silentPort();
    try {
      const cwd = ws.fresh('db-hang-twice');
      const args = ['export', ...OCTOBER];
      const run = startCli(args, { cwd, env: { ...sim.env('token'), DATABASE_URL: `postgres://payexport@127.0.0.1:${db.port}/books` } });
      await db.connected;
      run.child.kill('SIGTERM');
      await run.waitForStderr(/stopping: finishing the current page/);
      run.child.kill('SIGTERM');
      const result = await run.result;
      expectExit(args, result, 75, { message: /\(second SIGTERM: stopped without waiting\)/ });
      expectNoReport(cwd);
    } finally {
      await db.close();
    }
  });
});
