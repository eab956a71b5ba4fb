import { createServer, type Server } from 'node:http';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { ListObjectsV2Command } from '@aws-sdk/client-s3';
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
import { serveFakePriceSources } from '../support/prices/fake-price-sources.js';
import { startS3Server, type S3Server } from '../support/delivery/s3-server.js';
import { sshdUnavailable, startSftpServer, type SftpServer } from '../support/delivery/sftp-server.js';

/**
 * `payexport doctor` as a subprocess against the simulator: a healthy config passes with exit 0,
 * and each planted fault — a bad config, a wrong key, a key of another environment, a service
 * clock off by ten minutes, an unreachable or old snapshot, a held run lock, an unwritable or too
 * small output root, a price file short of the open period, an unreachable notification
 * destination, a price cache with a gap, an SFTP server showing another host key, a missing S3
 * bucket — turns exactly its line into ✗ with its fix, and the exit code into 78.
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
    for (const title of ['config valid', 'key files', 'API key for environment', "the service's clock", 'snapshot reachable', 'snapshot schema version', 'run locks free', 'output root reports', 'output scope of reports', 'journal prices', 'notification destinations', 'delivery destinations', 'signing key']) {
      expect(d.mark(title), title).toBe('✓');
    }
    expect(d.result.stdout).not.toContain('fix:');
    expect(d.result.stdout).toMatch(/13 checks: 13 passed, 0 failed/);
    expect(d.line('output scope of reports')).toMatch(/no books yet: the first run records it as organization \S+ \(environment \S+ only, every wallet\)'s/);
    // a first run has not happened: the probes left nothing behind (no output root, no database folder)
    expect(readdirSync(d.cwd).sort()).toEqual(['payexport.json']);
  });

  it('a bad config: ✗ with the loader\'s own message, every other check skipped', async () => {
    const d = await doctor('bad-config', { ...baseConfig(), outDir: 'reports' });
    expect(d.result.code).toBe(78);
    expect(d.mark('config valid')).toBe('✗');
    expect(d.line('config valid')).toMatch(/unknown configuration key 'outDir' in config file 'payexport.json'/);
    expect(d.fix('config valid')).toMatch(/remove or rename the key named above in payexport\.json/);
    expect(d.result.stdout).toMatch(/– api-key: not checked: it reads the config, which does not load/);
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

  it("the service's clock ten minutes ahead: ✗, said in minutes, for the listener's five-minute window", async () => {
    const d = await doctor('clock', baseConfig(skewed));
    expectOnlyFailure(d, "the service's clock", /10 minutes ahead of this machine's: the listener would refuse every webhook \(webhooks are accepted when their time stamp is within 5 minutes of this machine's clock\)/, /synchronize this machine's clock/);
  });

  it('an unreachable snapshot: ✗ reachable, version and locks skipped', async () => {
    const port = await closedPort();
    const d = await doctor('no-db', { ...baseConfig(), databaseUrl: `postgres://postgres@127.0.0.1:${port}/test` });
    expect(d.result.code).toBe(78);
    expect(d.mark('snapshot reachable')).toBe('✗');
    expect(d.line('snapshot reachable')).toContain(`127.0.0.1:${port}`);
    expect(d.fix('snapshot reachable')).toMatch(/^start the server, or fix the host and port in DATABASE_URL$/);
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
    expectOnlyFailure(d, 'snapshot schema version', new RegExp(`at version ${current - 1}, this payexport's is ${current}`), /payexport db migrate --config payexport\.json/);
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
    expectOnlyFailure(d, 'output root blocker/reports', /cannot write in .*blocker\/reports \(ENOTDIR: .*\/blocker is a file, not a folder\)/, /\/blocker is a file where a folder is needed: move that file away, or point "out" at a folder this user can write/);
  });

  it("an output root without room for this organization's last run: ✗ with both sizes; another organization's run (the demo's) is not counted", async () => {
    const plant = (cwd: string, job: string, organization: string, bytes: number): void => {
      const folder = join(cwd, 'reports', job, '2026-10');
      mkdirSync(folder, { recursive: true });
      writeFileSync(join(folder, 'manifest.json'), JSON.stringify({ parameters: { organization }, files: [{ path: 'report.xlsx', rows: 1, bytes, sha256: '0'.repeat(64) }] }));
    };
    // a last run far larger than any test machine's disk
    const d = await doctor('full', baseConfig(), { prepare: (cwd) => plant(cwd, 'month-end', sim.sim.organizationId, 4e18) });
    expectOnlyFailure(d, 'output root reports', /free, but the last run \(month-end\/2026-10\) wrote 4\.0 EB/, /free space on the file system of reports/);
    const shared = await doctor('shared-root', baseConfig(), {
      prepare: (cwd) => {
        plant(cwd, 'export', sim.sim.organizationId, 1_700_000);
        // newer, and another organization's: not this configuration's size
        plant(cwd, 'month-end', '00000000-0000-4000-8000-000000000000', 4e18);
      },
    });
    expect(shared.result.code, describeRun(['doctor'], shared.result)).toBe(0);
    expect(shared.line('output root reports')).toMatch(/its last run, export\/2026-10, wrote 1\.7 MB/);
  });

  it("an output root that holds another organization's books: ✗ naming both, with the fix", async () => {
    const other = '0b6c0d5e-0000-4000-8000-0000000000b2';
    const d = await doctor('other-scope', baseConfig(), {
      prepare: (cwd) => {
        mkdirSync(join(cwd, 'reports'), { recursive: true });
        writeFileSync(join(cwd, 'reports', '.scope.json'), JSON.stringify({ scope: { organization: other, environments: 'all', wallets: 'all' }, run_id: 'their-run', at: '2026-11-01T00:00:00Z' }));
      },
    });
    expectOnlyFailure(d, 'output scope of reports', new RegExp(`holds the books of organization ${other} .*this run covers organization `), /an output root of its own .*output\.perOrganization/);
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

  describe('the price cache (prices section): judged as the journal looks prices up', () => {
    const demoJournal = (): Record<string, unknown> => ({ ...(JSON.parse(readFileSync(join(ROOT, 'config', 'demo.json'), 'utf8')) as { journal: Record<string, unknown> }).journal, prices: [] });
    const open = monthPeriod(undefined, 'UTC', new Date());
    const fromSec = Date.parse(open.window.from.slice(0, 23) + 'Z') / 1000;
    /** a cache file as `payexport prices fetch` writes it: one row per hourly close, stamped at the hour's end, except the closes in `skip` */
    const hourly = (source: string, skip: (closeSec: number) => boolean = () => false): string => {
      const rows = ['timestamp,price,source,interval,close_of,observed_at,fetched_at'];
      for (let close = fromSec; close <= Date.now() / 1000; close += 3600) {
        if (skip(close)) continue;
        const at = new Date(close * 1000).toISOString().replace(/\.000Z$/, 'Z');
        rows.push(`${at},90000.5,${source},1h,UTC hour ${new Date((close - 3600) * 1000).toISOString().slice(0, 13)},${at},${at}`);
      }
      return rows.join('\n') + '\n';
    };
    const plant = (files: Record<string, string>) => (cwd: string): void => {
      mkdirSync(join(cwd, 'prices'));
      for (const [name, text] of Object.entries(files)) writeFileSync(join(cwd, 'prices', name), text);
    };

    it('a cache covering the open period: ✓ naming the source that covers it, exit 0', async () => {
      const prices = { cacheDir: 'prices', policy: { 'BTC-USD': { sources: ['coinbase:1h', 'kraken:1h'] } } };
      const d = await doctor('cache-ok', { ...baseConfig(), journal: demoJournal(), prices }, { prepare: plant({ 'kraken.BTC-USD.1h.csv': hourly('kraken') }) });
      expect(d.result.code, describeRun(['doctor'], d.result)).toBe(0);
      expect(d.mark('price cache BTC-USD (prices)')).toBe('✓');
      // coinbase (first in the policy) has no file: the journal falls through to kraken, and so does the check
      expect(d.line('price cache BTC-USD (prices)')).toMatch(new RegExp(`price_cache:kraken:1h covers the open period ${open.firstDay} \\.\\. now \\((\\d+) of \\1 closes\\)`));
    });

    it('a cache with a three-day gap: ✗ naming the missing closes and the fetch that fills them', async () => {
      const gapStart = fromSec + 5 * 86_400; // closes from day 5 00:00 (exclusive) to day 8 00:00 (inclusive) are missing
      const gapEnd = gapStart + 3 * 86_400;
      const prices = { cacheDir: 'prices', policy: { 'BTC-USD': { sources: ['coinbase:1h', 'kraken:1h'], maxStalenessSeconds: 3600 } } };
      const d = await doctor('cache-gap', { ...baseConfig(), journal: demoJournal(), prices }, { prepare: plant({ 'coinbase.BTC-USD.1h.csv': hourly('coinbase', (c) => c > gapStart && c <= gapEnd) }) });
      const text = (sec: number): string => new Date(sec * 1000).toISOString().replace(/\.000Z$/, 'Z');
      const day = (sec: number): string => new Date(sec * 1000).toISOString().slice(0, 10);
      expectOnlyFailure(
        d,
        'price cache BTC-USD (prices)',
        new RegExp(`no source covers the open period ${open.firstDay} \\.\\. now: price_cache:coinbase:1h is missing 72 of \\d+ closes \\(${text(gapStart + 3600)} \\.\\. ${text(gapEnd)}\\); after it in the policy: kraken:1h has none`),
        new RegExp(`^payexport prices fetch --currency BTC --books USD --from ${day(gapStart + 3600)} --to ${day(gapEnd - 1)} --config payexport\\.json$`),
      );
    });

    it('with prices.autoFetch (what init writes) an empty cache is no ✗ when a source answers now: tonight\'s run fetches its window first; the line names the fetch for now', async () => {
      const fake = await serveFakePriceSources({ nowSec: () => Math.floor(Date.now() / 1000) });
      const sources = { coinbase: { baseUrl: fake.baseUrl('coinbase') }, kraken: { baseUrl: fake.baseUrl('kraken') }, bitstamp: { baseUrl: fake.baseUrl('bitstamp') }, coingecko: { baseUrl: fake.baseUrl('coingecko') } };
      const d = await doctor('cache-auto', { ...baseConfig(), journal: demoJournal(), prices: { cacheDir: 'prices', autoFetch: true, sources } });
      expect(d.result.code, describeRun(['doctor'], d.result)).toBe(0);
      expect(d.line('price cache BTC-USD (prices)')).toMatch(/is not in the cache yet .*; coinbase:1h answers now \(24 of the most recent closes missing\): nightly and month-end fetch what their window needs first \(prices\.autoFetch\); to fetch it now: payexport prices fetch --currency BTC --books USD --from /);
      // asked, not fetched: the cache is the run's to fill
      expect(fake.requests('coinbase').length).toBeGreaterThan(0);
      expect(readdirSync(d.cwd)).not.toContain('prices');
    });

    it('with prices.autoFetch, an empty cache and no source answering: ✗ with exit 78 and the ways to price the period; a price file that covers it turns the line ✓', async () => {
      const refused = `http://127.0.0.1:${await closedPort()}`;
      const sources = { coinbase: { baseUrl: refused }, kraken: { baseUrl: refused }, bitstamp: { baseUrl: refused }, coingecko: { baseUrl: refused } };
      const config = { ...baseConfig(), journal: demoJournal(), prices: { cacheDir: 'prices', autoFetch: true, sources } };
      const d = await doctor('cache-auto-unreachable', config);
      expectOnlyFailure(
        d,
        'price cache BTC-USD (prices)',
        new RegExp(`the open period ${open.firstDay} \\.\\. now is not in the cache \\(.*\\) and no source of the policy sends closes now \\(coinbase:1h unreachable: cannot reach 127\\.0\\.0\\.1:\\d+ \\(connection refused\\); bitstamp:1h unreachable: .*; kraken:1h unreachable: .*; coingecko:1d unreachable: .*\\): tonight's run cannot value its BTC \\(it stops with exit 75 while no source answers\\)`),
        /^once a source answers: payexport prices fetch --currency BTC --books USD --from \S+ --to \S+ --config payexport\.json; without one, name a price file for btc in journal\.prices \(CSV "timestamp,price"\) covering .*, or set prices\.autoFetch to false/,
      );
      // the price file the fix names: the period is priced, the sources still unreachable
      const daily = ['timestamp,price', ...Array.from({ length: Math.ceil((Date.now() / 1000 - fromSec) / 86_400) + 2 }, (_, i) => `${new Date((fromSec + (i - 1) * 86_400) * 1000).toISOString()},90000.50`)].join('\n') + '\n';
      const withFile = { ...config, journal: { ...demoJournal(), prices: [{ currency: 'btc', file: 'btc-usd.csv' }] } };
      const after = await doctor('cache-auto-file', withFile, { prepare: (cwd) => writeFileSync(join(cwd, 'btc-usd.csv'), daily) });
      expect(after.result.code, describeRun(['doctor'], after.result)).toBe(0);
      expect(after.mark('price cache BTC-USD (prices)')).toBe('✓');
      expect(after.line('price cache BTC-USD (prices)')).toMatch(/covered by the price file first/);
    });

    it('a price file covering the open period comes first: the empty cache is then no ✗', async () => {
      const daily = ['timestamp,price', ...Array.from({ length: Math.ceil((Date.now() / 1000 - fromSec) / 86_400) + 2 }, (_, i) => `${new Date((fromSec + (i - 1) * 86_400) * 1000).toISOString()},90000.50`)].join('\n') + '\n';
      const journal = { ...demoJournal(), prices: [{ currency: 'btc', file: 'btc-usd.csv' }] };
      const d = await doctor('cache-file-first', { ...baseConfig(), journal, prices: { cacheDir: 'prices' } }, { prepare: (cwd) => writeFileSync(join(cwd, 'btc-usd.csv'), daily) });
      expect(d.result.code, describeRun(['doctor'], d.result)).toBe(0);
      expect(d.line('price cache BTC-USD (prices)')).toMatch(/covered by the price file first/);
    });

    it('a price file that stops early with the cache behind it: the pair is covered, the file line says the cache fills the rest', async () => {
      const daily = ['timestamp,price', ...Array.from({ length: 12 }, (_, i) => `${new Date((fromSec + (i - 1) * 86_400) * 1000).toISOString()},90000.50`)].join('\n') + '\n';
      const journal = { ...demoJournal(), prices: [{ currency: 'btc', file: 'btc-usd.csv' }] };
      // the cache lacks its first ten days: only the file and the cache together price every instant
      const d = await doctor('cache-behind-file', { ...baseConfig(), journal, prices: { cacheDir: 'prices', policy: { 'BTC-USD': { sources: ['kraken:1h'] } } } }, {
        prepare: (cwd) => {
          writeFileSync(join(cwd, 'btc-usd.csv'), daily);
          plant({ 'kraken.BTC-USD.1h.csv': hourly('kraken', (c) => c < fromSec + 10 * 86_400) })(cwd);
        },
      });
      expect(d.result.code, describeRun(['doctor'], d.result)).toBe(0);
      expect(d.line('prices of btc (btc-usd.csv)')).toMatch(/do not cover on their own .*; the price cache fills the rest/);
      expect(d.line('price cache BTC-USD (prices)')).toMatch(/covered by the price file and the cache together, each price within its staleness \(kraken:1h misses 240 of \d+ closes\)/);
    });
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

describe.skipIf(sshdUnavailable() !== null)('payexport doctor: delivery destinations, probed on real servers without a report sent', () => {
  let sftp: SftpServer;
  let s3: S3Server;
  const S3_ENV = { PAYEXPORT_TEST_S3_KEY_ID: '', PAYEXPORT_TEST_S3_SECRET: '' };
  beforeAll(async () => {
    sftp = await startSftpServer();
    s3 = await startS3Server();
    await s3.createBucket('books');
    S3_ENV.PAYEXPORT_TEST_S3_KEY_ID = s3.accessKeyId;
    S3_ENV.PAYEXPORT_TEST_S3_SECRET = s3.secretAccessKey;
  }, 60_000);
  afterAll(async () => {
    await Promise.all([sftp?.stop(), s3?.stop()]);
  });

  const accountant = (hostKey?: string): Record<string, unknown> => ({ kind: 'sftp', name: 'accountant', host: sftp.host, port: sftp.port, user: sftp.user, hostKey: hostKey ?? sftp.fingerprint, privateKeyFile: sftp.keyFile, remoteDir: sftp.root });
  const bucket = (name = 'books'): Record<string, unknown> => ({ kind: 's3', name: 'archive', bucket: name, prefix: 'acme/payexport', endpoint: s3.endpoint, forcePathStyle: true, accessKeyIdEnv: 'PAYEXPORT_TEST_S3_KEY_ID', secretAccessKeyEnv: 'PAYEXPORT_TEST_S3_SECRET' });
  /** what the probes must not leave behind: no object in the bucket, no entry under the SFTP root */
  const leftovers = async (): Promise<number> => {
    const client = s3.client();
    try {
      const listed = await client.send(new ListObjectsV2Command({ Bucket: 'books' }));
      return (listed.KeyCount ?? 0) + readdirSync(sftp.root).length;
    } finally {
      client.destroy();
    }
  };
  const noSecretIn = (d: Doctor): void => {
    for (const text of [d.result.stdout, d.result.stderr]) {
      expect(text).not.toContain(readFileSync(sftp.keyFile, 'utf8').split('\n')[1]);
      expect(text).not.toContain('PRIVATE KEY');
      expect(text).not.toContain(s3.secretAccessKey);
    }
  };

  it('an SFTP server with its pinned host key and an S3 bucket: both ✓, exit 0, nothing left on either', async () => {
    const d = await doctor('delivery-ok', { ...baseConfig(), delivery: { destinations: [accountant(), bucket()] } }, { env: S3_ENV });
    expect(d.result.code, describeRun(['doctor'], d.result)).toBe(0);
    expect(d.line('deliver accountant (sftp)')).toMatch(/host key matches, login ok, .* writable \(no report sent\)/);
    expect(d.line('deliver archive (s3)')).toMatch(/bucket reachable, writable \(no report sent\)/);
    expect(await leftovers()).toBe(0);
    noSecretIn(d);
  });

  it('a changed host key: ✗ naming both fingerprints, the fix says how to confirm the new one', async () => {
    const pinned = 'SHA256:' + 'A'.repeat(43);
    const d = await doctor('delivery-hostkey', { ...baseConfig(), delivery: { destinations: [accountant(pinned), bucket()] } }, { env: S3_ENV });
    expectOnlyFailure(d, 'deliver accountant (sftp)', new RegExp(`the server shows ${sftp.fingerprint.replace(/[+/]/g, '\\$&')}, the config pins ${pinned}`), /ssh-keyscan/);
    expect(d.mark('deliver archive (s3)')).toBe('✓');
    expect(await leftovers()).toBe(0);
    noSecretIn(d);
  });

  it('a wrong bucket: ✗ with the fix, the SFTP line still ✓', async () => {
    const d = await doctor('delivery-bucket', { ...baseConfig(), delivery: { destinations: [accountant(), bucket('no-such-books')] } }, { env: S3_ENV });
    expectOnlyFailure(d, 'deliver archive (s3)', /no-such-books/, /check bucket, endpoint, region and forcePathStyle/);
    expect(d.mark('deliver accountant (sftp)')).toBe('✓');
    noSecretIn(d);
  });
});
