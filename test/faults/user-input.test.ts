import { chmodSync, existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, runCli } from '../support/cli/cli.js';
import { probePostgres, urlWithPassword } from '../support/cli/pg.js';
import { PLANTED_KEYS, PLANTED_SECRETS, type TestSim } from '../support/cli/sim.js';
import { workspace } from '../support/cli/workspace.js';
import { expectExit } from './support/invariants.js';
import { OCTOBER, startOctoberSim } from './support/setting.js';

/**
 * INPUT and SEC-08: what a person or a config file gets wrong, beyond the cases of
 * test/cli/exit-codes.test.ts. Every case ends before a single API request and writes nothing:
 * no report folder, no spool, no database. User text that would reach a folder name (`--date`,
 * `--month`, `--from`/`--to`, `--job`) is refused with 64 when it tries to leave the output root.
 */

const pg = await probePostgres();
const ws = workspace('faults-input');
let sim: TestSim;

beforeAll(async () => {
  assertBuilt();
  sim = await startOctoberSim();
});

afterAll(async () => {
  await sim?.close();
  ws.remove();
});

interface InputCase {
  label: string;
  args: string[];
  code: 64 | 77 | 78;
  message: RegExp;
  /** files to create in the working folder first: name → [content, mode] */
  files?: Record<string, [string, number?]>;
  env?: Record<string, string>;
}

async function expectRefused(c: InputCase): Promise<void> {
  const cwd = ws.fresh(c.label);
  for (const [name, [content, mode]] of Object.entries(c.files ?? {})) {
    writeFileSync(join(cwd, name), content);
    if (mode !== undefined) chmodSync(join(cwd, name), mode);
  }
  const before = sim.sim.requestLog.entries().length;
  const result = await runCli(c.args, { cwd, env: { ...sim.env('token'), ...c.env } });
  // (a key file the case planted holds the key itself: only what the run wrote is searched)
  expectExit(c.args, result, c.code, { message: c.message, secrets: PLANTED_SECRETS, dirs: [join(cwd, 'reports'), join(cwd, 'data')] });
  expect(sim.sim.requestLog.entries().length, 'refused before any request').toBe(before);
  // Nothing written; the output root's writability probe (74 comes first) may leave it created, empty.
  const written = readdirSync(cwd).filter((name) => !(name in (c.files ?? {})));
  expect(written.filter((name) => name !== 'reports'), 'nothing written').toEqual([]);
  if (written.includes('reports')) expect(readdirSync(join(cwd, 'reports')), 'nothing written').toEqual([]);
  if (c.code === 64) expect(written, 'a usage error writes nothing at all').toEqual([]);
}

const USAGE: InputCase[] = [
  { label: 'a date in another format', args: ['export', '--from', '31/10/2026', '--to', '2026-10-31', '--no-db'], code: 64, message: /invalid --from '31\/10\/2026' \(expected a real date as YYYY-MM-DD\)/ },
  { label: 'a timestamp instead of a date', args: ['export', '--from', '2026-10-01T00:00:00Z', '--to', '2026-10-31', '--no-db'], code: 64, message: /invalid --from '2026-10-01T00:00:00Z'/ },
  { label: 'a day that does not exist (nightly)', args: ['nightly', '--date', '2026-11-31', '--no-db'], code: 64, message: /invalid --date '2026-11-31'/ },
  { label: 'a word for a date', args: ['nightly', '--date', 'yesterday', '--no-db'], code: 64, message: /invalid --date 'yesterday'/ },
  { label: 'a range in the future', args: ['export', '--from', '2099-01-01', '--to', '2099-01-31', '--no-db'], code: 64, message: /--from '2099-01-01' starts in the future/ },
  { label: 'an unknown time zone', args: ['export', ...OCTOBER, '--tz', 'Mars/Olympus_Mons', '--no-db'], code: 64, message: /invalid --tz 'Mars\/Olympus_Mons'/ },
  { label: 'report with both a month and a range', args: ['report', '--month', '2026-10', '--from', '2026-10-01', '--to', '2026-10-31'], code: 64, message: /report needs either --month YYYY-MM or both --from and --to/ },
  { label: 'report without a database', args: ['report', '--month', '2026-10', '--no-db'], code: 64, message: /cannot run with --no-db/ },
  { label: 'an unknown output format', args: ['export', ...OCTOBER, '--format', 'pdf', '--no-db'], code: 64, message: /--format/ },
  { label: 'a page size beyond the API maximum', args: ['export', ...OCTOBER, '--page-size', '5000', '--no-db'], code: 64, message: /--page-size/ },
  { label: 'a shard outside its count', args: ['export', ...OCTOBER, '--shard', '3/3'], code: 64, message: /--shard/ },
];

const TRAVERSAL: InputCase[] = [
  { label: 'a nightly --date that climbs out of the output root', args: ['nightly', '--date', '../../../etc/cron.d', '--no-db'], code: 64, message: /invalid --date '\.\.\/\.\.\/\.\.\/etc\/cron\.d'/ },
  { label: 'a --month with a path in it', args: ['month-end', '--month', '2026-10/../../x', '--no-db'], code: 64, message: /invalid --month '2026-10\/\.\.\/\.\.\/x'/ },
  { label: 'a --from with a path in it', args: ['export', '--from', '2026-10-01/../..', '--to', '2026-10-31', '--no-db'], code: 64, message: /invalid --from/ },
  { label: 'a --job that is a path', args: ['report', '--month', '2026-10', '--job', '../../tmp/x'], code: 64, message: /Invalid values: Argument: job, Given: "\.\.\/\.\.\/tmp\/x", Choices: "export", "nightly", "month-end"/ },
  { label: 'an absolute path as --date', args: ['nightly', '--date', '/etc/passwd', '--no-db'], code: 64, message: /invalid --date '\/etc\/passwd'/ },
];

const CONFIG: InputCase[] = [
  { label: 'a config file that is not JSON', args: ['export', ...OCTOBER, '--no-db', '--config', 'payexport.json'], files: { 'payexport.json': ['{ "tz": "UTC", }'] }, code: 78, message: /payexport\.json/ },
  { label: 'a value of the wrong type', args: ['export', ...OCTOBER, '--no-db', '--config', 'payexport.json'], files: { 'payexport.json': [JSON.stringify({ concurrency: 'eight' })] }, code: 78, message: /concurrency/ },
  { label: 'an unknown nested key', args: ['export', ...OCTOBER, '--no-db', '--config', 'payexport.json'], files: { 'payexport.json': [JSON.stringify({ retry: { maxAttemps: 3 } })] }, code: 78, message: /maxAttemps/ },
  { label: 'a config file that does not exist', args: ['export', ...OCTOBER, '--no-db', '--config', 'missing.json'], code: 78, message: /missing\.json/ },
  {
    label: 'a production environment pointed at the staging host',
    args: ['export', ...OCTOBER, '--no-db', '--config', 'payexport.json', '--base-url', 'https://staging.voltageapi.com/v1'],
    files: { 'payexport.json': [JSON.stringify({ environments: [{ id: '3f099f72-e10f-44ad-89e5-5ff532e2572d', kind: 'production' }] })] },
    code: 78,
    message: /configured as production but the base URL is the staging API/,
  },
  { label: 'the real API over plain http (the key would travel in clear)', args: ['export', ...OCTOBER, '--no-db', '--base-url', 'http://voltageapi.com/v1'], code: 78, message: /must be reached over https/ },
  {
    label: 'an API key file readable by others (0644)',
    args: ['export', ...OCTOBER, '--no-db'],
    files: { 'api-key': [`${PLANTED_KEYS[0]}\n`, 0o644] },
    env: { PAYEXPORT_BEARER_TOKEN: '', PAYEXPORT_API_KEY_FILE: 'api-key' },
    code: 78,
    message: /is readable by others \(mode 644\); run chmod 600/,
  },
  { label: 'an API key file that is not there', args: ['export', ...OCTOBER, '--no-db'], env: { PAYEXPORT_BEARER_TOKEN: '', PAYEXPORT_API_KEY_FILE: 'nope' }, code: 78, message: /nope' cannot be read/ },
  { label: 'an empty API key file', args: ['export', ...OCTOBER, '--no-db'], files: { 'api-key': ['\n', 0o600] }, env: { PAYEXPORT_BEARER_TOKEN: '', PAYEXPORT_API_KEY_FILE: 'api-key' }, code: 78, message: /is empty/ },
];

/** SEC-02: secrets never come from argv (`ps` and shell history show it); refused without echoing the value. */
const SECRET_FLAGS: InputCase[] = [
  { label: 'an API key given as a flag', args: ['export', ...OCTOBER, '--no-db', '--api-key', PLANTED_KEYS[0]], code: 64, message: /Unknown arguments?: api-key/ },
  { label: 'an API key given as --api-key=…', args: ['export', ...OCTOBER, '--no-db', `--api-key=${PLANTED_KEYS[1]}`], code: 64, message: /Unknown arguments?: api-key/ },
  { label: 'a database password in --database-url', args: ['export', ...OCTOBER, '--database-url', `postgres://payexport:${PLANTED_KEYS[0]}@127.0.0.1:1/books`], code: 78, message: /holds a password: put it in DATABASE_URL or databaseUrlFile/ },
];

const CREDENTIALS: InputCase[] = [
  { label: 'a key that is only whitespace (missing, not sent)', args: ['export', ...OCTOBER, '--no-db'], env: { PAYEXPORT_BEARER_TOKEN: '', PAYEXPORT_API_KEY: ' \n\t' }, code: 77, message: /no API credentials/ },
];

describe('64: bad command-line values', () => {
  it.each(USAGE)('$label', expectRefused);
});

describe('64: user text that would reach a folder name and leave the output root', () => {
  it.each(TRAVERSAL)('$label', expectRefused);
});

describe('78: bad configuration, before any request', () => {
  it.each(CONFIG)('$label', expectRefused);
});

describe('secrets given on the command line are refused, never echoed', () => {
  it.each(SECRET_FLAGS)('$label', expectRefused);
});

describe('77: credentials missing', () => {
  it.each(CREDENTIALS)('$label', expectRefused);
});

describe.skipIf(pg.url === null)(`the database refuses the run${pg.skipReason === null ? '' : ` (skipped: ${pg.skipReason})`}`, () => {
  it('78: a database that does not exist', async () => {
    const url = new URL(urlWithPassword(pg.url!, 'PLANTEDpgInput-1a9c').url);
    url.pathname = '/payexport_no_such_database';
    const cwd = ws.fresh('no-database');
    const args = ['export', ...OCTOBER];
    const result = await runCli(args, { cwd, env: { ...sim.env('token'), DATABASE_URL: url.toString() } });
    expectExit(args, result, 78, { message: /database postgres:\/\/\S+\/payexport_no_such_database does not exist/, secrets: [...PLANTED_SECRETS, 'PLANTEDpgInput-1a9c'], dirs: [cwd] });
    expect(existsSync(join(cwd, 'reports/export'))).toBe(false);
  });

  it('77: a role the server does not know', async () => {
    const url = new URL(urlWithPassword(pg.url!, 'PLANTEDpgInput-1a9c').url);
    url.username = 'payexport_no_such_role';
    const cwd = ws.fresh('no-role');
    const args = ['export', ...OCTOBER];
    const result = await runCli(args, { cwd, env: { ...sim.env('token'), DATABASE_URL: url.toString() } });
    expectExit(args, result, 77, { message: /database postgres:\/\/payexport_no_such_role:\S+ rejected the credentials/, secrets: [...PLANTED_SECRETS, 'PLANTEDpgInput-1a9c'], dirs: [cwd] });
  });
});
