import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, describeRun, runCli, splitStderr } from '../support/cli/cli.js';
import { closedPort } from '../support/cli/closed-port.js';
import { writeReportFolder } from '../support/delivery/report-folder.js';
import { workspace } from '../support/cli/workspace.js';

/**
 * One config discovery for every command: `--config`, then PAYEXPORT_CONFIG, then
 * config/payexport.json under the current folder (what init writes); each command says which file
 * it read. Each file here sets another time zone, so what a command shows tells which one it read.
 * The whole first hour with no --config at all (init, doctor, month-end): first-hour.test.ts.
 */

const ws = workspace('config-discovery');
beforeAll(() => assertBuilt());
afterAll(() => ws.remove());

const ORGANIZATION = '0c0ffee0-0000-4000-8000-000000000001';

/** A folder holding config/payexport.json (tz Europe/Berlin) and two other files (Asia/Tokyo, America/Chicago). */
function folder(label: string): string {
  const cwd = ws.fresh(label);
  mkdirSync(join(cwd, 'config'));
  const write = (path: string, tz: string): void => writeFileSync(join(cwd, path), JSON.stringify({ organization: ORGANIZATION, tz, out: 'books', db: false }));
  write('config/payexport.json', 'Europe/Berlin');
  write('env.json', 'Asia/Tokyo');
  write('flag.json', 'America/Chicago');
  return cwd;
}

interface Shown {
  configFile: { value: string | null; source: string };
  tz: { value: string; source: string };
}

async function printConfig(command: readonly string[], cwd: string, env: Record<string, string> = {}): Promise<Shown> {
  const args = [...command, '--print-config'];
  const result = await runCli(args, { cwd, env });
  expect(result.code, describeRun(args, result)).toBe(0);
  return JSON.parse(result.stdout) as Shown;
}

const JOBS: ReadonlyArray<readonly string[]> = [
  ['export', '--from', '2026-10-01', '--to', '2026-10-31'],
  ['nightly'],
  ['month-end', '--month', '2026-10'],
  ['report', '--month', '2026-10'],
  ['listen'],
];

describe('which config file a command reads', () => {
  it.each(JOBS)('%s: config/payexport.json found in the current folder, else PAYEXPORT_CONFIG, and --config above both', async (...command) => {
    const cwd = folder(command[0]!);
    expect(await printConfig(command, cwd)).toMatchObject({ configFile: { value: 'config/payexport.json', source: 'default' }, tz: { value: 'Europe/Berlin', source: 'file' } });
    expect(await printConfig(command, cwd, { PAYEXPORT_CONFIG: 'env.json' })).toMatchObject({ configFile: { value: 'env.json', source: 'env' }, tz: { value: 'Asia/Tokyo' } });
    expect(await printConfig([...command, '--config', 'flag.json'], cwd, { PAYEXPORT_CONFIG: 'env.json' })).toMatchObject({ configFile: { value: 'flag.json', source: 'flag' }, tz: { value: 'America/Chicago' } });
  });

  it('a folder without config/payexport.json: no file, defaults and environment — and a file named but missing is an error, never a fallback', async () => {
    const cwd = ws.fresh('none');
    expect(await printConfig(['nightly'], cwd)).toMatchObject({ configFile: { value: null, source: 'default' }, tz: { value: 'UTC', source: 'default' } });
    const named = await runCli(['nightly', '--print-config'], { cwd: folder('missing'), env: { PAYEXPORT_CONFIG: 'nowhere.json' } });
    expect(named.code, describeRun(['nightly'], named)).toBe(78);
    expect(named.stderr).toMatch(/^payexport: config file 'nowhere\.json' cannot be read/);
  });

  it('a job says in its log which file it read, before anything else', async () => {
    const cwd = folder('job-log');
    // no organization's service to reach: the run stops at discovery, after the line
    const port = await closedPort();
    const args = ['export', '--from', '2026-10-01', '--to', '2026-10-31', '--base-url', `http://127.0.0.1:${port}/v1`, '--concurrency', '1'];
    const result = await runCli(args, { cwd, env: { PAYEXPORT_API_KEY: 'vltg_discoveryTESTkey000000000000000' } });
    expect(result.code, describeRun(args, result)).not.toBe(0);
    const { logs } = splitStderr(result.stderr);
    expect(logs[0]?.msg, describeRun(args, result)).toBe('config: config/payexport.json (found in the current folder)');
  });

  it('doctor: its first line names the file', async () => {
    const cwd = folder('doctor');
    const found = await runCli(['doctor'], { cwd });
    expect(found.stdout.split('\n')[0], describeRun(['doctor'], found)).toBe('payexport doctor — config: config/payexport.json (found in the current folder)');
    const none = await runCli(['doctor'], { cwd: ws.fresh('doctor-none') });
    expect(none.stdout.split('\n')[0]).toBe('payexport doctor — config: no file (no --config, no PAYEXPORT_CONFIG, no config/payexport.json in the current folder): defaults and environment');
    const env = await runCli(['doctor'], { cwd, env: { PAYEXPORT_CONFIG: 'env.json' } });
    expect(env.stdout.split('\n')[0]).toBe('payexport doctor — config: env.json (PAYEXPORT_CONFIG)');
  });

  it('prices fetch: its first line names the file whose prices section it uses', async () => {
    const cwd = folder('prices');
    const port = await closedPort();
    const sources = Object.fromEntries(['coinbase', 'kraken', 'bitstamp', 'coingecko'].map((s) => [s, { baseUrl: `http://127.0.0.1:${port}` }]));
    writeFileSync(join(cwd, 'config', 'payexport.json'), JSON.stringify({ tz: 'Europe/Berlin', prices: { cacheDir: 'prices', sources, retry: { maxAttempts: 1, runBudget: 0, maxDelayMs: 10, maxRetryAfterMs: 10 } } }));
    const args = ['prices', 'fetch', '--from', '2026-10-01', '--to', '2026-10-02'];
    const result = await runCli(args, { cwd, env: { PAYEXPORT_NOW: '2026-11-15T12:00:00Z' } });
    expect(result.code, describeRun(args, result)).toBe(75);
    expect(result.stdout.split('\n')[0]).toBe('config: config/payexport.json (found in the current folder)');
    // the found file's price sources were the ones asked (all at the closed port)
    expect(result.stderr).toMatch(/unreachable/);
  });

  it('deliver: its log names the file whose destinations it delivers to', async () => {
    const cwd = folder('deliver');
    const share = join(cwd, 'share');
    mkdirSync(share);
    writeFileSync(join(cwd, 'config', 'payexport.json'), JSON.stringify({ tz: 'Europe/Berlin', delivery: { destinations: [{ name: 'share', kind: 'folder', path: share }] } }));
    const dir = writeReportFolder(join(cwd, 'books'), { files: { 'payments.csv': 'id\n1\n' } });
    const result = await runCli(['deliver', dir, '--no-db'], { cwd });
    expect(result.code, describeRun(['deliver', dir], result)).toBe(0);
    expect(splitStderr(result.stderr).logs[0]?.msg).toBe('config: config/payexport.json (found in the current folder)');
    expect(readdirSync(join(share, 'month-end', '2026-10')).sort()).toEqual(['manifest.json', 'payments.csv']);
  });
});
