import { createServer, type Server } from 'node:http';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, describeRun, runCli, type CliResult } from '../support/cli/cli.js';
import { closedPort } from '../support/cli/closed-port.js';
import { dropSchemas, probePostgres, uniqueSchemaName, withDb } from '../support/cli/pg.js';
import { expectNoSecrets } from '../support/cli/secrets.js';
import { PLANTED_KEYS, PLANTED_SECRETS, startTestSim, type TestSim } from '../support/cli/sim.js';
import { workspace } from '../support/cli/workspace.js';
import { makeTestCertificate, startSmtpReceiver, type SmtpReceiver, type TestCertificate } from '../support/notify/receivers.js';
import { migrate } from '../../src/store/db/migrate.js';
import { storeSchema } from '../../src/store/db/schema.js';
import { acquireRunLock } from '../../src/store/sql/run-lock.js';
import { acquireFileLock, describeHolder } from '../../src/store/db/lock-file.js';
import { embeddedLockPath } from '../../src/store/db/pglite-db.js';
import { monthPeriod } from '../../src/model/period.js';
import { ROOT } from '../support/cli/cli.js';

/**
 * `payexport doctor` as a subprocess against the simulator: a healthy config passes with exit 0,
 * and each planted fault — a bad config, a wrong key, a key of another environment, a service
 * clock off by ten minutes, an unreachable or old snapshot, a held run lock, an unwritable or too
 * small output root, a price file short of the open period, an unreachable notification
 * destination — turns exactly its line into ✗ with its fix, and the exit code into 78.
 */

const ws = workspace('doctor');
const pg = await probePostgres();
const schemas: string[] = [];
let sim: TestSim;
let skewed: TestSim;
let listener: Server;
let listenerPort = 0;
let listenerRequests = 0;
let cert: TestCertificate;
let smtp: SmtpReceiver;
const SMTP_PASSWORD = 'smtp-PLANTED-doctor-3c1d';

beforeAll(async () => {
  assertBuilt();
  sim = await startTestSim();
  skewed = await startTestSim({ clockOffsetMs: 600_000 });
  listener = createServer((_req, res) => {
    listenerRequests += 1;
    res.end('ok');
  });
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  listenerPort = (listener.address() as { port: number }).port;
  cert = makeTestCertificate();
  smtp = await startSmtpReceiver(cert, { user: 'payexport', password: SMTP_PASSWORD });
});

afterAll(async () => {
  await Promise.all([sim?.close(), skewed?.close(), new Promise((resolve) => listener?.close(resolve)), smtp?.close()]);
  cert?.remove();
  if (pg.url) await dropSchemas(pg.url, schemas);
  ws.remove();
});

interface Doctor {
  result: CliResult;
  cwd: string;
  /** `✓`, `✗` or `–` per line title */
  mark(title: string): string | undefined;
  /** the whole line of `title` and its fix line, when it has one */
  line(title: string): string;
  fix(title: string): string | undefined;
}

function baseConfig(target: TestSim = sim, environment = 0): Record<string, unknown> {
  return {
    baseUrl: target.sim.baseUrl,
    organization: target.sim.organizationId,
    environments: [{ id: target.sim.environments[environment]!.id, apiKeyEnv: 'PAYEXPORT_API_KEY' }],
    tz: 'UTC',
    out: 'reports',
    dataDir: 'data',
  };
}

async function doctor(label: string, config: Record<string, unknown> | string, options: { env?: Record<string, string>; prepare?: (cwd: string) => void } = {}): Promise<Doctor> {
  const cwd = ws.fresh(label);
  writeFileSync(join(cwd, 'payexport.json'), typeof config === 'string' ? config : JSON.stringify(config, null, 2));
  options.prepare?.(cwd);
  const result = await runCli(['doctor', '--config', 'payexport.json'], { cwd, env: { PAYEXPORT_API_KEY: PLANTED_KEYS[0], ...options.env } });
  const lines = result.stdout.split('\n');
  const find = (title: string): number => lines.findIndex((l) => /^ {2}[✓✗–] /.test(l) && l.slice(4).startsWith(title));
  expectNoSecrets(PLANTED_SECRETS, { texts: [result.stdout, result.stderr] });
  return {
    result,
    cwd,
    mark: (title) => lines[find(title)]?.slice(2, 3),
    line: (title) => lines[find(title)] ?? `(no line '${title}' in:\n${result.stdout})`,
    fix: (title) => {
      const next = lines[find(title) + 1];
      return next?.startsWith('      fix: ') ? next.slice('      fix: '.length) : undefined;
    },
  };
}

/** The planted fault shows as ✗ on its own line, with a fix, and doctor exits 78. */
function expectOnlyFailure(d: Doctor, title: string, detail: RegExp, fix: RegExp): void {
  const why = describeRun(['doctor'], d.result);
  expect(d.result.code, why).toBe(78);
  expect(d.mark(title), why).toBe('✗');
  expect(d.line(title)).toMatch(detail);
  expect(d.fix(title), why).toMatch(fix);
  const failed = d.result.stdout.split('\n').filter((l) => l.startsWith('  ✗ '));
  expect(failed, why).toHaveLength(1);
}

describe('payexport doctor', () => {
  it('passes a healthy config with exit 0: every line ✓, no fix printed, no secret', async () => {
    const d = await doctor('healthy', baseConfig());
    expect(d.result.code, describeRun(['doctor'], d.result)).toBe(0);
    for (const title of ['config valid', 'API key for environment', "the service's clock", 'snapshot reachable', 'snapshot schema version', 'run locks free', 'output root reports', 'journal prices', 'notification destinations', 'delivery destinations']) {
      expect(d.mark(title), title).toBe('✓');
    }
    expect(d.result.stdout).not.toContain('fix:');
    expect(d.result.stdout).toMatch(/10 checks: 10 passed, 0 failed/);
  });

  it('a bad config: ✗ with the loader\'s own message, every other check skipped', async () => {
    const d = await doctor('bad-config', { ...baseConfig(), outDir: 'reports' });
    expect(d.result.code).toBe(78);
    expect(d.mark('config valid')).toBe('✗');
    expect(d.line('config valid')).toMatch(/unknown configuration key 'outDir' in config file 'payexport.json'/);
    expect(d.fix('config valid')).toMatch(/fix payexport\.json.*payexport init/);
    expect(d.result.stdout).toMatch(/– api-key: needs a valid config/);
  });

  it('a wrong key: ✗ with the 401 the jobs report, and where the key is read from', async () => {
    const d = await doctor('wrong-key', baseConfig(), { env: { PAYEXPORT_API_KEY: 'vltg_wrongWRONGwrong0000000000000000' } });
    expectOnlyFailure(d, 'API key for environment', /401 wrong_credentials/, /the key in the variable PAYEXPORT_API_KEY is not accepted/);
    expect(d.result.stdout).not.toContain('vltg_wrongWRONG');
  });

  it('a key of another environment: ✗ with the 403 access_rights, fix names the environment', async () => {
    const config = baseConfig(sim, 1);
    const d = await doctor('other-env', config);
    const environment = sim.sim.environments[1]!.id;
    expectOnlyFailure(d, `API key for environment ${environment}`, /403 access_rights: The API key is scoped to another environment/, new RegExp(`another environment: give environment ${environment} its own key`));
  });

  it("the service's clock ten minutes ahead: ✗ for the listener's ±300 s window", async () => {
    const d = await doctor('clock', baseConfig(skewed));
    expectOnlyFailure(d, "the service's clock", /(599|600|601) s ahead of ours, beyond the listener's ±300 s webhook window/, /synchronize this machine's clock/);
  });

  it('an unreachable snapshot: ✗ reachable, version and locks skipped', async () => {
    const port = await closedPort();
    const d = await doctor('no-db', { ...baseConfig(), databaseUrl: `postgres://postgres@127.0.0.1:${port}/test` });
    expect(d.result.code).toBe(78);
    expect(d.mark('snapshot reachable')).toBe('✗');
    expect(d.line('snapshot reachable')).toContain(`127.0.0.1:${port}`);
    expect(d.fix('snapshot reachable')).toMatch(/start the server, or fix DATABASE_URL/);
    expect(d.mark('snapshot schema version')).toBe('–');
    expect(d.mark('run locks free')).toBe('–');
  });

  it.skipIf(!pg.url)('an old snapshot schema (Postgres): ✗ with the version found, fix db migrate', async () => {
    const schema = uniqueSchemaName('doctor_old');
    schemas.push(schema);
    const current = await withDb(pg.url!, async (db) => {
      const { current } = await migrate(db, storeSchema(schema));
      await db.query(`DELETE FROM ${storeSchema(schema).table('schema_migrations')} WHERE version = $1`, [current]);
      return current;
    });
    const d = await doctor('old-schema', { ...baseConfig(), dbSchema: schema }, { env: { DATABASE_URL: pg.url! } });
    expectOnlyFailure(d, 'snapshot schema version', new RegExp(`at version ${current - 1}, this payexport's is ${current}`), /npx payexport db migrate --config payexport\.json/);
  });

  it.skipIf(!pg.url)('a held run lock (Postgres): ✗ naming the job, ✓ again once its owner releases it', async () => {
    const schema = uniqueSchemaName('doctor_lock');
    schemas.push(schema);
    await withDb(pg.url!, async (db) => {
      await migrate(db, storeSchema(schema));
      const lock = await acquireRunLock(db, storeSchema(schema), sim.sim.organizationId, 'nightly');
      try {
        const d = await doctor('lock', { ...baseConfig(), dbSchema: schema }, { env: { DATABASE_URL: pg.url! } });
        expectOnlyFailure(d, 'run locks free', new RegExp(`another nightly run for organization ${sim.sim.organizationId} is in progress`), /wait for that run to end/);
      } finally {
        await lock.release();
      }
      const again = await doctor('lock-released', { ...baseConfig(), dbSchema: schema }, { env: { DATABASE_URL: pg.url! } });
      expect(again.mark('run locks free'), describeRun(['doctor'], again.result)).toBe('✓');
    });
  });

  it('the embedded database held by a run in progress: ✗ run locks, naming the holder', async () => {
    const cwd = ws.fresh('embedded-held');
    mkdirSync(join(cwd, 'data', 'pgdata'), { recursive: true });
    // this test process stands for the run: alive, on this host, holding the data folder
    const lock = await acquireFileLock(embeddedLockPath(join(cwd, 'data')), 'embedded database', describeHolder);
    try {
      writeFileSync(join(cwd, 'payexport.json'), JSON.stringify(baseConfig()));
      const result = await runCli(['doctor', '--config', 'payexport.json'], { cwd, env: { PAYEXPORT_API_KEY: PLANTED_KEYS[0] } });
      expect(result.code, describeRun(['doctor'], result)).toBe(78);
      expect(result.stdout).toMatch(new RegExp(`✗ run locks free: .*pid ${process.pid}`));
      expect(result.stdout).toMatch(/fix: wait for that run to end/);
      expect(result.stdout.split('\n').filter((l) => l.startsWith('  ✗ '))).toHaveLength(1);
    } finally {
      await lock.release();
    }
  });

  it('an output root that cannot be written: ✗ with the reason', async () => {
    const d = await doctor('unwritable', { ...baseConfig(), out: 'blocker/reports' }, { prepare: (cwd) => writeFileSync(join(cwd, 'blocker'), 'a file, not a folder\n') });
    expectOnlyFailure(d, 'output root blocker/reports', /cannot write in .*blocker\/reports \(ENOTDIR\)/, /create blocker\/reports for the user the scheduler runs as/);
  });

  it("an output root without room for the last run's size: ✗ with both sizes", async () => {
    const d = await doctor('full', baseConfig(), {
      prepare: (cwd) => {
        const folder = join(cwd, 'reports', 'month-end', '2026-10');
        mkdirSync(folder, { recursive: true });
        // a last run far larger than any test machine's disk
        writeFileSync(join(folder, 'manifest.json'), JSON.stringify({ files: [{ path: 'report.xlsx', rows: 1, bytes: 4e18, sha256: '0'.repeat(64) }] }));
      },
    });
    expectOnlyFailure(d, 'output root reports', /free, but the last run \(month-end\/2026-10\) wrote 4\.0 EB/, /free space on the file system of reports/);
  });

  it('journal prices: a file that stops before the open period is ✗, one that covers it is ✓', async () => {
    const demo = JSON.parse(readFileSync(join(ROOT, 'config', 'demo.json'), 'utf8')) as { journal: Record<string, unknown> };
    const journal = { ...demo.journal, prices: [{ currency: 'btc', file: 'btc-usd.csv' }] };
    const open = monthPeriod(undefined, 'UTC', new Date());
    const from = Date.parse(open.window.from.slice(0, 23) + 'Z');
    const daily = (startMs: number, endMs: number): string =>
      ['timestamp,price', ...Array.from({ length: Math.floor((endMs - startMs) / 86_400_000) + 1 }, (_, i) => `${new Date(startMs + i * 86_400_000).toISOString()},90000.50`)].join('\n') + '\n';
    const short = await doctor('prices-short', { ...baseConfig(), journal }, { prepare: (cwd) => writeFileSync(join(cwd, 'btc-usd.csv'), daily(from - 5 * 86_400_000, from + 3 * 86_400_000)) });
    expectOnlyFailure(short, 'prices of btc (btc-usd.csv)', /do not cover the open period .* no usable price at /, /add prices from \d{4}-\d{2}-\d{2} to now to btc-usd\.csv/);
    const covering = await doctor('prices-ok', { ...baseConfig(), journal }, { prepare: (cwd) => writeFileSync(join(cwd, 'btc-usd.csv'), daily(from - 86_400_000, Date.now() + 86_400_000)) });
    expect(covering.result.code, describeRun(['doctor'], covering.result)).toBe(0);
    expect(covering.line('prices of btc (btc-usd.csv)')).toMatch(new RegExp(`cover the open period ${open.firstDay} \\.\\. now`));
  });

  it('notification destinations: an unreachable one is ✗, a reachable one ✓ — and nothing is sent to it', async () => {
    const port = await closedPort();
    const notify = {
      destinations: [
        { kind: 'webhook', name: 'books-hook', url: `http://127.0.0.1:${listenerPort}/hook`, secretEnv: 'PAYEXPORT_WEBHOOK_SECRET' },
        { kind: 'webhook', name: 'dead-hook', url: `http://127.0.0.1:${port}/hook`, secretEnv: 'PAYEXPORT_WEBHOOK_SECRET' },
      ],
    };
    const before = listenerRequests;
    const d = await doctor('notify', { ...baseConfig(), notify }, { env: { PAYEXPORT_WEBHOOK_SECRET: 'whsec_PLANTED-doctor-9f1e' } });
    expectOnlyFailure(d, 'notify dead-hook (webhook)', new RegExp(`cannot reach 127\\.0\\.0\\.1:${port} \\(ECONNREFUSED\\)`), /check the URL of dead-hook/);
    expect(d.mark('notify books-hook (webhook)')).toBe('✓');
    expect(listenerRequests).toBe(before);
    expect(d.result.stdout).not.toContain('whsec_PLANTED');
  });

  it('an SMTP relay: greeting, STARTTLS and login checked without a mail; a refused password is ✗', async () => {
    const email = (passwordEnv: string): Record<string, unknown> => ({
      notify: {
        destinations: [{ kind: 'email', name: 'finance-mail', host: '127.0.0.1', port: smtp.port, caFile: cert.certPath, from: 'payexport@example.com', to: ['finance@example.com'], user: 'payexport', passwordEnv }],
      },
    });
    const good = await doctor('smtp-ok', { ...baseConfig(), ...email('PAYEXPORT_SMTP_PASSWORD') }, { env: { PAYEXPORT_SMTP_PASSWORD: SMTP_PASSWORD } });
    expect(good.result.code, describeRun(['doctor'], good.result)).toBe(0);
    expect(good.line('notify finance-mail (email)')).toMatch(new RegExp(`127\\.0\\.0\\.1:${smtp.port} greeted, TLS, login accepted \\(nothing sent\\)`));
    const bad = await doctor('smtp-bad', { ...baseConfig(), ...email('PAYEXPORT_SMTP_PASSWORD') }, { env: { PAYEXPORT_SMTP_PASSWORD: 'not-the-PLANTED-password' } });
    expectOnlyFailure(bad, 'notify finance-mail (email)', /Invalid login|535/, /check host, port, TLS and login of finance-mail/);
    expect(smtp.mails).toHaveLength(0);
    expect(good.result.stdout + bad.result.stdout).not.toContain(SMTP_PASSWORD);
  });
});
