import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, describeRun, runCli } from '../support/cli/cli.js';
import { closedPort } from '../support/cli/closed-port.js';
import { probePostgres } from '../support/cli/pg.js';
import { expectNoSecrets } from '../support/cli/secrets.js';
import { PLANTED_KEYS, PLANTED_SECRETS, startTestSim, type TestSim } from '../support/cli/sim.js';
import { workspace } from '../support/cli/workspace.js';

/**
 * `payexport doctor`: every ✗ has the fix of its cause. One table, one planted fault per row, run
 * as a subprocess against the simulator: the line that turns ✗, its fix, and — because a check is
 * skipped only when it truly needs what failed — which lines may show "–" (none, unless the row
 * names them). Kernel-backed faults (a read-only and a full tmpfs) need `mount`; a folder an
 * ordinary user may not write is checked by running doctor as `nobody` when the tests run as root
 * (root writes through permission bits).
 */

const ws = workspace('doctor-fixes');
const pg = await probePostgres();
/** the test server, with a database name nobody made */
const missingDatabaseUrl = ((): string => {
  if (!pg.url) return '';
  const url = new URL(pg.url);
  url.pathname = '/payexport_never_created_52';
  return url.toString();
})();
let sim: TestSim;
let deadPort = 0;
const isRoot = process.getuid?.() === 0;
const NOBODY = 65534;
// doctor run as `nobody` must reach its working folder
if (isRoot) chmodSync(ws.root, 0o755);

function tryMount(dir: string, options: string): string | null {
  mkdirSync(dir, { recursive: true });
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', options, 'tmpfs', dir], { stdio: 'pipe' });
    return null;
  } catch (error) {
    return `mount -t tmpfs failed here (${String((error as { stderr?: Buffer }).stderr ?? error).trim().split('\n')[0]})`;
  }
}
const readOnlyDir = join(ws.root, 'read-only');
const fullDir = join(ws.root, 'full');
const readOnlySkip = tryMount(readOnlyDir, 'ro,size=64k');
const fullSkip = tryMount(fullDir, 'size=64k');
if (fullSkip === null) {
  // fill it to the last page: the probe file then has no room
  try {
    writeFileSync(join(fullDir, 'filler'), Buffer.alloc(1 << 20));
  } catch {
    // ENOSPC: full, as wanted
  }
}
const hasGit = (() => {
  try {
    execFileSync('git', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

beforeAll(async () => {
  assertBuilt();
  sim = await startTestSim();
  deadPort = await closedPort();
});

afterAll(async () => {
  await sim?.close();
  for (const dir of [readOnlyDir, fullDir]) {
    try {
      execFileSync('umount', [dir], { stdio: 'pipe' });
    } catch {
      // never mounted
    }
  }
  ws.remove();
});

const git = (cwd: string, ...args: string[]): void => void execFileSync('git', ['-C', cwd, '-c', 'user.email=t@example.com', '-c', 'user.name=t', ...args], { stdio: 'ignore' });

interface Fault {
  label: string;
  config?: (base: Record<string, unknown>) => Record<string, unknown> | string;
  /** the --config argument (default payexport.json, written from `config`) */
  configArg?: string;
  prepare?: (cwd: string) => void;
  env?: Record<string, string>;
  /** the line that turns ✗ (its title's start) */
  title: string;
  detail: RegExp;
  fix: RegExp;
  /** titles that may show "–" because they need what failed */
  skips?: readonly string[];
  /** every other check still runs: no "–" line besides `skips` */
  allSkipped?: boolean;
  skipIf?: string | null;
  uid?: number;
}

const environment = (): string => sim.sim.environments[0]!.id;

const FAULTS: Fault[] = [
  { label: 'config: an unknown key', config: (b) => ({ ...b, outDir: 'x' }), title: 'config valid', detail: /unknown configuration key 'outDir'/, fix: /^remove or rename the key named above in payexport\.json/, allSkipped: true },
  { label: 'config: not JSON', config: () => '{"tz": "UTC",', title: 'config valid', detail: /is not valid JSON/, fix: /^fix the JSON of payexport\.json where the message points/, allSkipped: true },
  { label: 'config: the file named does not exist', configArg: 'nowhere.json', title: 'config valid', detail: /config file 'nowhere\.json' cannot be read/, fix: /^check the path given to --config/, allSkipped: true },
  { label: 'config: a key written into the file', config: (b) => ({ ...b, environments: [{ id: environment(), apiKey: 'vltg_inTHEfile' }] }), title: 'config valid', detail: /holds a secret at 'environments\[0\]\.apiKey'/, fix: /^take the secret out of payexport\.json/, allSkipped: true },
  {
    label: 'a key file others can read (mode 644)',
    config: (b) => ({ ...b, environments: [{ id: environment(), apiKeyFile: 'prod.api-key' }] }),
    prepare: (cwd) => writeFileSync(join(cwd, 'prod.api-key'), `${PLANTED_KEYS[0]}\n`, { mode: 0o644 }),
    env: { PAYEXPORT_API_KEY: '' },
    title: 'key file prod.api-key',
    detail: /is readable by others \(mode 644\)/,
    fix: /^chmod 600 '.*prod\.api-key' \(only its owner may read the API key\)$/,
    skips: ['API key for environment'],
  },
  { label: 'a key file that is not there', config: (b) => ({ ...b, environments: [{ id: environment(), apiKeyFile: 'gone.api-key' }] }), env: { PAYEXPORT_API_KEY: '' }, title: 'key file gone.api-key', detail: /cannot be read/, fix: /^write the API key into .*gone\.api-key \(mode 600\)/, skips: ['API key for environment'] },
  {
    label: 'a key file git would commit',
    config: (b) => ({ ...b, environments: [{ id: environment(), apiKeyFile: 'prod.api-key' }] }),
    prepare: (cwd) => {
      git(cwd, 'init', '-q');
      writeFileSync(join(cwd, 'prod.api-key'), `${PLANTED_KEYS[0]}\n`, { mode: 0o600 });
    },
    env: { PAYEXPORT_API_KEY: '' },
    title: 'key file prod.api-key',
    detail: /git would commit it: it is inside the checkout .* and nothing ignores it/,
    fix: /^add it to \.gitignore \(echo '\/prod\.api-key' >> '.*\/\.gitignore'\), or move it out of the checkout/,
    skipIf: hasGit ? null : 'git is not installed',
  },
  {
    label: 'a key file already committed',
    config: (b) => ({ ...b, environments: [{ id: environment(), apiKeyFile: 'prod.api-key' }] }),
    prepare: (cwd) => {
      git(cwd, 'init', '-q');
      writeFileSync(join(cwd, 'prod.api-key'), `${PLANTED_KEYS[0]}\n`, { mode: 0o600 });
      git(cwd, 'add', 'prod.api-key');
      git(cwd, 'commit', '-qm', 'oops');
    },
    env: { PAYEXPORT_API_KEY: '' },
    title: 'key file prod.api-key',
    detail: /it is committed to git in .*: the API key is in the history/,
    fix: /^rotate the API key \(revoke this one, write the new one into the file\), then git rm --cached 'prod\.api-key'/,
    skipIf: hasGit ? null : 'git is not installed',
  },
  { label: 'a key variable that is not set', config: (b) => ({ ...b, environments: [{ id: environment(), apiKeyEnv: 'PAYEXPORT_KEY_PROD' }] }), title: 'API key for environment', detail: /names PAYEXPORT_KEY_PROD, which is not set/, fix: /^set PAYEXPORT_KEY_PROD in the environment the scheduler runs with/ },
  { label: 'a wrong key', env: { PAYEXPORT_API_KEY: 'vltg_wrongWRONGwrong0000000000000000' }, title: 'API key for environment', detail: /401 wrong_credentials/, fix: /^the key in the variable PAYEXPORT_API_KEY is not accepted: put a valid key of this environment there$/ },
  {
    label: 'a service that does not answer',
    config: (b) => ({ ...b, baseUrl: `http://127.0.0.1:${deadPort}/v1`, requestTimeoutMs: 2_000 }),
    title: 'API key for environment',
    detail: /ECONNREFUSED|refused|cannot connect/i,
    fix: /^check baseUrl \(http:\/\/127\.0\.0\.1:\d+\/v1\) and this machine's network; if the service itself is down, the next run tries again$/,
  },
  {
    label: 'a staging environment against the production service',
    config: (b) => ({ ...b, baseUrl: 'https://voltageapi.com/v1', requestTimeoutMs: 2_000, environments: [{ id: environment(), kind: 'staging', apiKeyEnv: 'PAYEXPORT_API_KEY' }] }),
    title: 'API key for environment',
    detail: /configured as staging but the base URL is the production API/,
    fix: /^make each environment's kind match its base URL: staging keys belong to https:\/\/staging\.voltageapi\.com\/v1/,
  },
  { label: 'an output root on a read-only file system', config: (b) => ({ ...b, out: join(readOnlyDir, 'reports') }), title: 'output root', detail: /\(EROFS/, fix: /is on a read-only file system: remount it read-write, or point "out" at a folder this user can write$/, skipIf: readOnlySkip },
  { label: 'an output root on a full file system', config: (b) => ({ ...b, out: fullDir }), title: 'output root', detail: /\(ENOSPC/, fix: /is full \(or over quota\): free space there, or point "out" at a folder this user can write$/, skipIf: fullSkip },
  {
    label: 'an output root this user may not write',
    config: (b) => ({ ...b, out: 'locked/reports' }),
    prepare: (cwd) => {
      mkdirSync(join(cwd, 'locked'), { mode: 0o555 });
      chmodSync(join(cwd, 'locked'), 0o555);
      if (isRoot) chmodSync(cwd, 0o777);
    },
    title: 'output root locked/reports',
    detail: /\(EACCES at .*\/locked\)/,
    fix: /may not write in .*\/locked: give it write permission there \(chown or chmod\), or point "out" at a folder this user can write$/,
    uid: isRoot ? NOBODY : undefined,
  },
  { label: 'an output root below a file', config: (b) => ({ ...b, out: 'blocker/reports' }), prepare: (cwd) => writeFileSync(join(cwd, 'blocker'), 'a file\n'), title: 'output root blocker/reports', detail: /\(ENOTDIR/, fix: /\/blocker is a file where a folder is needed: move that file away/, skips: ['output scope of'] },
  // issue 52: `--out /x/afile` named /x, the folder above the file
  { label: 'an output root that is a file', config: (b) => ({ ...b, out: 'x/afile' }), prepare: (cwd) => { mkdirSync(join(cwd, 'x')); writeFileSync(join(cwd, 'x', 'afile'), 'a file\n'); }, title: 'output root x/afile', detail: /\(ENOTDIR: .*\/x\/afile is a file, not a folder\)$/, fix: /^\/.*\/x\/afile is a file where a folder is needed: move that file away, or point "out" at a folder this user can write$/, skips: ['output scope of'] },
  // issue 52: the fix said "start the server" for a server that answered, and a database it does not have
  {
    label: 'a Postgres database that does not exist',
    env: { DATABASE_URL: missingDatabaseUrl },
    title: 'snapshot reachable',
    detail: /database postgres:\/\/.*\/payexport_never_created_52 does not exist/,
    fix: /^create it: createdb (-h \S+ )?(-p \d+ )?(-U \S+ )?payexport_never_created_52 \(as a role that may create databases; in psql: CREATE DATABASE "payexport_never_created_52"( OWNER "[^"]+")?;\), or fix the database name in DATABASE_URL$/,
    skips: ['snapshot schema version', 'run locks free'],
    skipIf: pg.url ? null : 'no Postgres (DATABASE_URL)',
  },
  { label: 'an output root where no folder can be made (/proc)', config: (b) => ({ ...b, out: '/proc/payexport-reports' }), title: 'output root /proc/payexport-reports', detail: /\(ENOENT/, fix: /^\/proc\/payexport-reports cannot be created where it is .*: point "out" at a folder on an ordinary disk$/ },
  {
    label: 'an embedded database folder on a read-only file system',
    config: (b) => ({ ...b, dataDir: join(readOnlyDir, 'data') }),
    title: 'snapshot reachable',
    detail: /the folder for the database and its lock files cannot be written \(EROFS/,
    fix: /is on a read-only file system: remount it read-write, or point "dataDir" at a folder this user can write$/,
    skips: ['snapshot schema version', 'run locks free'],
    skipIf: readOnlySkip,
  },
  {
    label: 'an embedded database folder whose parent this user may not write',
    config: (b) => ({ ...b, dataDir: 'locked/data' }),
    prepare: (cwd) => {
      mkdirSync(join(cwd, 'locked'), { mode: 0o555 });
      chmodSync(join(cwd, 'locked'), 0o555);
      if (isRoot) chmodSync(cwd, 0o777);
    },
    title: 'snapshot reachable',
    detail: /cannot be written \(EACCES at .*\/locked\)/,
    fix: /may not write in .*\/locked: give it write permission there \(chown or chmod\), or point "dataDir" at a folder this user can write$/,
    skips: ['snapshot schema version', 'run locks free'],
    uid: isRoot ? NOBODY : undefined,
  },
  {
    label: 'a database URL file others can read',
    config: (b) => ({ ...b, databaseUrlFile: 'db.url' }),
    prepare: (cwd) => writeFileSync(join(cwd, 'db.url'), 'postgres://postgres@127.0.0.1:5432/test\n', { mode: 0o644 }),
    title: 'key file db.url',
    detail: /database URL file '.*db\.url' is readable by others \(mode 644\)/,
    fix: /^chmod 600 '.*db\.url' \(only its owner may read the database URL\)$/,
    skips: ['snapshot reachable', 'snapshot schema version', 'run locks free'],
  },
];

describe('payexport doctor: each planted fault → the fix of its cause', () => {
  for (const fault of FAULTS) {
    it.skipIf(fault.skipIf !== undefined && fault.skipIf !== null)(fault.label, async () => {
      const cwd = ws.fresh(fault.label);
      if (isRoot) chmodSync(cwd, 0o755);
      const base = { baseUrl: sim.sim.baseUrl, organization: sim.sim.organizationId, environments: [{ id: environment(), apiKeyEnv: 'PAYEXPORT_API_KEY' }], tz: 'UTC', out: 'reports', dataDir: 'data' };
      const config = fault.config?.(base) ?? base;
      if (fault.configArg === undefined) writeFileSync(join(cwd, 'payexport.json'), typeof config === 'string' ? config : JSON.stringify(config, null, 2), { mode: 0o644 });
      fault.prepare?.(cwd);
      const env = Object.fromEntries(Object.entries<string>({ PAYEXPORT_API_KEY: PLANTED_KEYS[0], ...fault.env }).filter(([, v]) => v !== ''));
      const args = ['doctor', '--config', fault.configArg ?? 'payexport.json'];
      const result = await runCli(args, { cwd, env, ...(fault.uid === undefined ? {} : { uid: fault.uid }) });
      const why = describeRun(args, result);
      const lines = result.stdout.split('\n');
      const at = lines.findIndex((l) => l.startsWith(`  ✗ ${fault.title}`));
      expect(result.code, why).toBe(78);
      expect(at, why).toBeGreaterThan(-1);
      expect(lines[at], why).toMatch(fault.detail);
      expect(lines[at + 1], why).toMatch(/^ {6}fix: /);
      expect(lines[at + 1]!.slice('      fix: '.length), why).toMatch(fault.fix);
      // every ✗ has a fix line under it
      lines.forEach((line, i) => {
        if (line.startsWith('  ✗ ')) expect(lines[i + 1], why).toMatch(/^ {6}fix: \S/);
      });
      if (fault.allSkipped !== true) {
        const skipped = lines.filter((l) => l.startsWith('  – ')).map((l) => l.slice(4));
        for (const line of skipped) expect(fault.skips?.some((t) => line.startsWith(t)), `${line} is skipped, but does not need what failed\n${why}`).toBe(true);
      }
      expectNoSecrets(PLANTED_SECRETS, { texts: [result.stdout, result.stderr] });
    });
  }
});

describe('payexport doctor: one line per key file', () => {
  // issue 52: the key file init writes, named again by PAYEXPORT_API_KEY_FILE (or by a second environment), was checked and printed twice
  it('a key file named by two environments and by PAYEXPORT_API_KEY_FILE has one line', async () => {
    const cwd = ws.fresh('key-file-once');
    const keyFile = join(cwd, 'org.api-key');
    writeFileSync(keyFile, `${PLANTED_KEYS[0]}\n`, { mode: 0o600 });
    const config = { baseUrl: sim.sim.baseUrl, organization: sim.sim.organizationId, environments: sim.sim.environments.map((e) => ({ id: e.id, apiKeyFile: keyFile })), tz: 'UTC', out: 'reports', dataDir: 'data' };
    writeFileSync(join(cwd, 'payexport.json'), JSON.stringify(config, null, 2));
    const args = ['doctor', '--config', 'payexport.json'];
    const result = await runCli(args, { cwd, env: { PAYEXPORT_API_KEY_FILE: keyFile } });
    const lines = result.stdout.split('\n').filter((l) => /^ {2}[✓✗–] key file/.test(l));
    expect(lines, describeRun(args, result)).toEqual([`  ✓ key file ${keyFile}: only its owner can read it; outside any git checkout`]);
    expectNoSecrets(PLANTED_SECRETS, { texts: [result.stdout, result.stderr] });
  });
});
