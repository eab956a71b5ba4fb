import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { simpleParser } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, describeRun, runCli, splitStderr, startCli, type CliResult } from '../support/cli/cli.js';
import { closedPort } from '../support/cli/closed-port.js';
import { dropSchemas, probePostgres, uniqueSchemaName, urlWithPassword, withDb } from '../support/cli/pg.js';
import { expectNoSecrets } from '../support/cli/secrets.js';
import { PLANTED_SECRETS, startTestSim, type TestSim } from '../support/cli/sim.js';
import { workspace } from '../support/cli/workspace.js';
import { HOSTILE_VALUES } from '../../src/sim/dataset/hostile-text.js';
import { makeTestCertificate, startHttpReceiver, startSmtpReceiver, type HttpReceiver, type RecordedRequest, type SmtpReceiver, type TestCertificate } from '../support/notify/receivers.js';

/**
 * Notifications of real runs (the CLI as a subprocess, against the simulator, with Postgres for
 * the runs' notifications table): all four destinations on loopback servers, the dead man's switch
 * around the run (start before the first API request, success or fail after, exactly once — also
 * on SIGTERM), faults at every destination that change neither the report nor the exit code, and
 * every delivered byte searched for planted secrets and for the run's own memos and metadata.
 */

const ws = workspace('notify');
const OCTOBER = ['--from', '2026-10-01', '--to', '2026-10-31'];
const PING_PATH = '/ping/5f0c8a52-1d7e-4c3b-9a61-PLANTEDping';
const SLACK_PATH = '/services/T0PLANTED/B0PLANTED/PLANTEDslackToken91ab';
const WEBHOOK_SECRET = 'whsec_PLANTED-webhook-secret-c0ffee42';
const SMTP_PASSWORD = 'smtp-PLANTED-password-7e3a';
const DB_PASSWORD = 'db-PLANTED-password-4b1f';

const pg = await probePostgres();
const schemas: string[] = [];
let clean: TestSim;
let anomalous: TestSim;
let webhook: HttpReceiver;
let slack: HttpReceiver;
let ping: HttpReceiver;
let cert: TestCertificate;
let smtp: SmtpReceiver;

beforeAll(async () => {
  assertBuilt();
  clean = await startTestSim();
  anomalous = await startTestSim({ anomalies: 'all' });
  [webhook, slack, ping] = await Promise.all([startHttpReceiver(), startHttpReceiver(), startHttpReceiver()]);
  cert = makeTestCertificate();
  smtp = await startSmtpReceiver(cert, { user: 'payexport', password: SMTP_PASSWORD });
});

afterAll(async () => {
  await Promise.all([clean?.close(), anomalous?.close(), webhook?.close(), slack?.close(), ping?.close(), smtp?.close()]);
  cert?.remove();
  if (pg.url) await dropSchemas(pg.url, schemas);
  ws.remove();
});

interface Setup {
  cwd: string;
  args: string[];
  env: Record<string, string>;
  schema: string | null;
}

function destinations(smtpPort: number): unknown[] {
  return [
    { kind: 'webhook', name: 'books-webhook', url: `${webhook.url}/hooks/payexport`, secretEnv: 'PAYEXPORT_WEBHOOK_SECRET' },
    { kind: 'slack', name: 'finance-slack', urlEnv: 'PAYEXPORT_SLACK_URL', when: { nightly: 'on-failure', 'month-end': 'always', export: 'always' } },
    {
      kind: 'email',
      name: 'finance-mail',
      host: '127.0.0.1',
      port: smtpPort,
      caFile: cert.certPath,
      from: 'payexport@example.com',
      to: ['finance@example.com'],
      user: 'payexport',
      passwordEnv: 'PAYEXPORT_SMTP_PASSWORD',
      attachExceptions: true,
      when: 'on-failure',
    },
    { kind: 'ping', name: 'cron-monitor', urlEnv: 'PAYEXPORT_PING_URL' },
  ];
}

/** A working folder with the config file, the command line and the environment of one run. */
function setup(label: string, sim: TestSim, options: { db: boolean; timeoutMs?: number; smtpPort?: number; extraArgs?: string[] }): Setup {
  const cwd = ws.fresh(label);
  writeFileSync(join(cwd, 'payexport.json'), JSON.stringify({ notify: { timeoutMs: options.timeoutMs ?? 5000, destinations: destinations(options.smtpPort ?? smtp.port) } }, null, 2));
  const env: Record<string, string> = {
    ...sim.env({ keyOf: 1 }),
    PAYEXPORT_LOG_FORMAT: 'json',
    PAYEXPORT_WEBHOOK_SECRET: WEBHOOK_SECRET,
    PAYEXPORT_SLACK_URL: `${slack.url}${SLACK_PATH}`,
    PAYEXPORT_PING_URL: `${ping.url}${PING_PATH}`,
    PAYEXPORT_SMTP_PASSWORD: SMTP_PASSWORD,
  };
  let schema: string | null = null;
  const args = ['export', ...OCTOBER, '--config', 'payexport.json', ...(options.extraArgs ?? [])];
  if (options.db) {
    schema = uniqueSchemaName('notify');
    schemas.push(schema);
    env.DATABASE_URL = urlWithPassword(pg.url!, DB_PASSWORD).url;
    args.push('--schema', schema);
  } else args.push('--no-db');
  return { cwd, args, env, schema };
}

interface Delivered {
  webhook: RecordedRequest[];
  slack: RecordedRequest[];
  ping: RecordedRequest[];
  mails: SmtpReceiver['mails'];
}

/** What every receiver got while `fn` ran. */
async function deliveredDuring<T>(fn: () => Promise<T>): Promise<[T, Delivered]> {
  const before = { webhook: webhook.requests.length, slack: slack.requests.length, ping: ping.requests.length, mails: smtp.mails.length };
  const value = await fn();
  return [value, { webhook: webhook.requests.slice(before.webhook), slack: slack.requests.slice(before.slack), ping: ping.requests.slice(before.ping), mails: smtp.mails.slice(before.mails) }];
}

/** Every byte a destination received: bodies, header values and mails (the request path is the destination's own URL). */
function deliveredBytes(d: Delivered): string[] {
  const http = [...d.webhook, ...d.slack, ...d.ping].flatMap((r) => [r.body.toString('utf8'), JSON.stringify(r.headers)]);
  return [...http, ...d.mails.map((m) => m.raw.toString('utf8'))];
}

function verifiesIndependently(request: RecordedRequest): boolean {
  const timestamp = request.headers['x-payexport-timestamp']!;
  const expected = createHmac('sha256', Buffer.from(WEBHOOK_SECRET, 'utf8')).update(request.body).update(`.${timestamp}`).digest();
  const given = Buffer.from(request.headers['x-payexport-signature']!, 'base64');
  return given.length === 32 && timingSafeEqual(given, expected);
}

async function notificationRows(schema: string): Promise<Array<{ destination: string; event: string; outcome: string; attempts: number; detail: string }>> {
  return withDb(pg.url!, async (db) => {
    const { rows } = await db.query<{ destination: string; event: string; outcome: string; attempts: number; detail: string }>(
      `SELECT destination, event, outcome, attempts, detail FROM "${schema}".notifications ORDER BY destination, event`,
    );
    return rows;
  });
}

function publishedDir(result: CliResult): string {
  const dir = /^files\s+(\S+)/m.exec(result.stdout)?.[1];
  expect(dir, describeRun([], result)).toBeDefined();
  expect(existsSync(join(dir!, 'manifest.json'))).toBe(true);
  return dir!;
}

/** The memo/description and metadata values the run pulled (payments.csv), as written by the payer: personal text. */
function personalTexts(dir: string, allowed: readonly string[]): string[] {
  const rows = parse(readFileSync(join(dir, 'payments.csv'), 'utf8'), { columns: true, bom: true }) as Array<Record<string, string>>;
  const values = new Set<string>();
  for (const row of rows) {
    const description = (row.description ?? '').replace(/^'/, '');
    if (description !== '') values.add(description);
    if (row.metadata) {
      for (const value of Object.values(JSON.parse(row.metadata.replace(/^'/, '')) as Record<string, unknown>)) if (typeof value === 'string') values.add(value.replace(/^'/, ''));
    }
  }
  // too short or numeric-looking to be told apart from an amount; or a wallet's own name (which messages do show)
  return [...values].filter((v) => v.trim().length >= 6 && !/^[-+\d.\s]+$/.test(v) && !allowed.some((a) => a.includes(v)));
}

function expectInOrderAroundTheRun(pings: RecordedRequest[], sim: TestSim, simBefore: number, last: 'success' | 'fail'): void {
  expect(pings.map((p) => `${p.method} ${p.path}`)).toEqual([`POST ${PING_PATH}/start`, last === 'success' ? `POST ${PING_PATH}` : `POST ${PING_PATH}/fail`]);
  const simRequests = sim.sim.requestLog.entries().slice(simBefore);
  expect(simRequests.length).toBeGreaterThan(0);
  // start was answered before the run's first API request arrived; the end came after its last
  expect(pings[0]!.at).toBeLessThanOrEqual(Date.parse(simRequests[0]!.at));
  expect(pings[1]!.at).toBeGreaterThanOrEqual(Date.parse(simRequests.at(-1)!.at));
}

describe.skipIf(pg.skipReason !== null)(`runs that notify (Postgres: ${pg.skipReason ?? 'available'})`, () => {
  it('exceptions (65): every destination told, the books in words, ping start → fail, the runs table records each delivery', async () => {
    const s = setup('exceptions', anomalous, { db: true });
    const simBefore = anomalous.sim.requestLog.entries().length;
    const [result, got] = await deliveredDuring(() => runCli(s.args, { cwd: s.cwd, env: s.env }));
    expect(result.code, describeRun(s.args, result)).toBe(65);
    expect(splitStderr(result.stderr).plain, 'only JSON log lines on stderr').toEqual([]);
    const dir = publishedDir(result);

    expectInOrderAroundTheRun(got.ping, anomalous, simBefore, 'fail');
    expect(got.ping[1]!.body.toString('utf8')).toMatch(/^exit 65\n/);

    expect(got.webhook).toHaveLength(1);
    expect(verifiesIndependently(got.webhook[0]!)).toBe(true);
    const payload = JSON.parse(got.webhook[0]!.body.toString('utf8')) as Record<string, unknown> & { exceptions: Array<{ wallet_name: string | null; text: string }>; counts: { errors: number }; report: { folder: string; manifest_sha256: string } };
    expect(payload).toMatchObject({ schema: 'payexport.run/v1', test: false, job: 'export', period: '2026-10-01_2026-10-31', exit_code: 65, status: 'exceptions', ties_out: false });
    expect(payload.counts.errors).toBeGreaterThan(0);
    expect(payload.report.folder).toBe(dir);
    expect(payload.report.manifest_sha256).toBe(createHash('sha256').update(readFileSync(join(dir, 'manifest.json'))).digest('hex'));
    const walletNames = anomalous.sim.wallets.map((w) => w.name);
    expect(payload.exceptions.length).toBeGreaterThan(0);
    expect(payload.exceptions.length).toBeLessThanOrEqual(5);
    expect(payload.exceptions.some((e) => e.wallet_name !== null && walletNames.includes(e.wallet_name))).toBe(true);

    expect(got.slack).toHaveLength(1);
    const blocks = (JSON.parse(got.slack[0]!.body.toString('utf8')) as { blocks: unknown[] }).blocks;
    expect(blocks.length).toBeLessThanOrEqual(50);

    expect(got.mails).toHaveLength(1);
    expect(got.mails[0]!.secure).toBe(true);
    const mail = await simpleParser(got.mails[0]!.raw);
    expect(mail.subject).toMatch(/^payexport export 2026-10-01_2026-10-31: does NOT tie — \d+ error\(s\) \(exit 65\)$/);
    expect(mail.text).toMatch(/^Tie-out:\s+does NOT tie/m);
    expect(mail.text).toMatch(/^Open items:\s+\d+ carried$/m);
    expect(mail.attachments.map((a) => a.filename)).toEqual(['exceptions.csv']);
    expect(mail.attachments[0]!.content.equals(readFileSync(join(dir, 'exceptions.csv')))).toBe(true);

    // docs/operations.md shows these two as a person sees them: PAYEXPORT_NOTIFY_CAPTURE=<folder> keeps them
    const capture = process.env.PAYEXPORT_NOTIFY_CAPTURE;
    if (capture) {
      writeFileSync(join(capture, 'slack.json'), got.slack[0]!.body);
      writeFileSync(join(capture, 'mail.eml'), got.mails[0]!.raw);
      writeFileSync(join(capture, 'webhook.json'), got.webhook[0]!.body);
    }

    const rows = await notificationRows(s.schema!);
    expect(rows.map((r) => [r.destination, r.event, r.outcome, r.attempts])).toEqual([
      ['books-webhook', 'run', 'delivered', 1],
      ['cron-monitor', 'fail', 'delivered', 1],
      ['cron-monitor', 'start', 'delivered', 1],
      ['finance-mail', 'run', 'delivered', 1],
      ['finance-slack', 'run', 'delivered', 1],
    ]);

    // planted secrets in 0 delivered bytes (nor in the output); the run's memos and metadata neither
    const secrets = [...PLANTED_SECRETS, WEBHOOK_SECRET, SMTP_PASSWORD, DB_PASSWORD, SLACK_PATH, PING_PATH.slice(6)];
    expectNoSecrets(secrets, { texts: [...deliveredBytes(got), result.stdout, result.stderr] });
    const personal = personalTexts(dir, walletNames);
    expect(personal.length, 'the run pulled memos and metadata').toBeGreaterThan(0);
    expect(personal.filter((v) => HOSTILE_VALUES.includes(v)).length, 'among them the simulator\'s hostile text').toBeGreaterThan(0);
    const delivered = deliveredBytes(got).join('\n');
    for (const text of personal) expect(delivered.includes(text), `delivered bytes hold the personal text ${JSON.stringify(text)}`).toBe(false);
  });

  it('faults at every destination (hang, 500, refused, slow): same exit code, report published, failures recorded', async () => {
    const s = setup('faults', clean, { db: true, timeoutMs: 1500, smtpPort: await closedPort() });
    webhook.setBehaviour({ kind: 'hang' });
    slack.setBehaviour({ kind: 'status', status: 500, text: 'slack is down' });
    ping.setBehaviour({ kind: 'slow', delayMs: 300 });
    try {
      const [result, got] = await deliveredDuring(() => runCli(s.args, { cwd: s.cwd, env: s.env }));
      expect(result.code, describeRun(s.args, result)).toBe(0);
      expect(splitStderr(result.stderr).plain, 'only JSON log lines on stderr').toEqual([]);
      publishedDir(result);
      // the run ended while the hanging destination still held its requests unanswered
      expect(webhook.pending()).toBeGreaterThan(0);
      expect(got.ping.map((p) => p.path)).toEqual([`${PING_PATH}/start`, PING_PATH]);
      expect(got.mails).toHaveLength(0);
      const rows = await notificationRows(s.schema!);
      const byName = new Map(rows.map((r) => [`${r.destination}:${r.event}`, r]));
      expect(byName.get('books-webhook:run')).toMatchObject({ outcome: 'failed' });
      expect(byName.get('books-webhook:run')!.detail).toMatch(/^no answer from 127\.0\.0\.1:\d+ within \d+ ms$/);
      expect(byName.get('finance-slack:run')).toMatchObject({ outcome: 'failed', attempts: 3 });
      expect(byName.get('finance-slack:run')!.detail).toMatch(/^HTTP 500 from 127\.0\.0\.1:\d+: slack is down$/);
      expect(byName.has('finance-mail:run'), 'on-failure: not told about a clean run').toBe(false);
      expect(byName.get('cron-monitor:start')).toMatchObject({ outcome: 'delivered' });
      expect(byName.get('cron-monitor:success')).toMatchObject({ outcome: 'delivered' });
      const warnings = splitStderr(result.stderr).logs.filter((l) => l.level === 'warn' && typeof l.msg === 'string' && l.msg.startsWith('notification to'));
      expect(warnings.map((w) => w.destination).sort()).toEqual(['books-webhook', 'finance-slack']);
      expect(splitStderr(result.stderr).logs.at(-1)).toMatchObject({ exit_code: 0 });
    } finally {
      webhook.setBehaviour({ kind: 'ok' });
      slack.setBehaviour({ kind: 'ok' });
      ping.setBehaviour({ kind: 'ok' });
    }
  });

  it('an unreachable SMTP server on a run with exceptions: still 65, the failure recorded', async () => {
    const s = setup('smtp-refused', anomalous, { db: true, timeoutMs: 1500, smtpPort: await closedPort() });
    const [result, got] = await deliveredDuring(() => runCli(s.args, { cwd: s.cwd, env: s.env }));
    expect(result.code, describeRun(s.args, result)).toBe(65);
    publishedDir(result);
    expect(got.mails).toHaveLength(0);
    const mail = (await notificationRows(s.schema!)).find((r) => r.destination === 'finance-mail');
    expect(mail).toMatchObject({ event: 'run', outcome: 'failed' });
    expect(mail!.detail).toMatch(/connection refused by 127\.0\.0\.1:\d+ \(ECONNREFUSED\)/);
  });
});

describe('the dead man\'s switch and --no-notify (no database)', () => {
  it('a clean run: start before the first request, then the bare URL, once each', async () => {
    const s = setup('clean', clean, { db: false });
    const simBefore = clean.sim.requestLog.entries().length;
    const [result, got] = await deliveredDuring(() => runCli(s.args, { cwd: s.cwd, env: s.env }));
    expect(result.code, describeRun(s.args, result)).toBe(0);
    expectInOrderAroundTheRun(got.ping, clean, simBefore, 'success');
    expect(got.ping[1]!.body.toString('utf8')).toMatch(/^exit 0\npayexport export 2026-10-01_2026-10-31: ties out \(exit 0\)\n/);
    const payload = JSON.parse(got.webhook[0]!.body.toString('utf8')) as { ties_out: boolean; counts: { errors: number } };
    expect(payload).toMatchObject({ ties_out: true, counts: { errors: 0 } });
    expect(got.slack).toHaveLength(1);
    expect(got.mails, 'on-failure: not told').toHaveLength(0);
  });

  it('SIGTERM during the pull: start, then fail (exit 75), exactly once each', async () => {
    const s = setup('sigterm', clean, { db: false });
    clean.sim.setFaults('latency=60s');
    let running;
    const [result, got] = await deliveredDuring(async () => {
      try {
        running = startCli(s.args, { cwd: s.cwd, env: s.env });
        await running.waitForStderr(/"phase":"discovery"/);
        running.child.kill('SIGTERM');
      } finally {
        clean.sim.setFaults(null);
      }
      return running.result;
    });
    expect(result.code, describeRun(s.args, result)).toBe(75);
    expect(got.ping.map((p) => `${p.method} ${p.path}`)).toEqual([`POST ${PING_PATH}/start`, `POST ${PING_PATH}/fail`]);
    expect(got.ping[1]!.body.toString('utf8')).toMatch(/^exit 75\ninterrupted by SIGTERM/);
    const payload = JSON.parse(got.webhook[0]!.body.toString('utf8')) as { status: string; exit_code: number; failure: { type: string } };
    expect(payload).toMatchObject({ status: 'failed', exit_code: 75, failure: { type: 'interrupted' } });
  });

  it('--no-notify: nothing is sent anywhere', async () => {
    const s = setup('no-notify', clean, { db: false, extraArgs: ['--no-notify'] });
    const [result, got] = await deliveredDuring(() => runCli(s.args, { cwd: s.cwd, env: s.env }));
    expect(result.code, describeRun(s.args, result)).toBe(0);
    expect(deliveredBytes(got)).toEqual([]);
  });
});

describe('payexport notify test', () => {
  it('sends the sample to every destination and says delivered, per destination', async () => {
    const s = setup('notify-test', clean, { db: false });
    const args = ['notify', 'test', '--config', 'payexport.json'];
    const [result, got] = await deliveredDuring(() => runCli(args, { cwd: s.cwd, env: s.env }));
    expect(result.code, describeRun(args, result)).toBe(0);
    expect(result.stdout.trim().split('\n').map((l) => l.replace(/\(\d+ attempts?, \d+ ms\)/, '(…)'))).toEqual([
      'books-webhook  webhook  delivered (…)',
      'finance-slack  slack    delivered (…)',
      'finance-mail   email    delivered (…)',
      'cron-monitor   ping     delivered (…)',
    ]);
    // the ping is a log entry: the monitor's state is left alone
    expect(got.ping.map((p) => p.path)).toEqual([`${PING_PATH}/log`]);
    expect(JSON.parse(got.webhook[0]!.body.toString('utf8'))).toMatchObject({ test: true });
    expect(got.webhook[0]!.headers['x-payexport-event']).toBe('run.test');
    expect(got.mails).toHaveLength(1);
  });

  it('says why not: a missing secret, a refused connection, the server words of a 4xx', async () => {
    const s = setup('notify-test-fail', clean, { db: false, smtpPort: await closedPort(), timeoutMs: 1000 });
    const { PAYEXPORT_WEBHOOK_SECRET: _unset, ...env } = s.env;
    slack.setBehaviour({ kind: 'status', status: 403, text: 'invalid_token' });
    try {
      const args = ['notify', 'test', '--config', 'payexport.json'];
      const result = await runCli(args, { cwd: s.cwd, env });
      expect(result.code, describeRun(args, result)).toBe(69);
      const lines = result.stdout.trim().split('\n');
      expect(lines[0]).toMatch(/^books-webhook {2}webhook {2}NOT delivered: the webhook signing secret variable PAYEXPORT_WEBHOOK_SECRET is not set \(0 attempts, \d+ ms\)$/);
      expect(lines[1]).toMatch(/^finance-slack {2}slack {4}NOT delivered: HTTP 403 from 127\.0\.0\.1:\d+: invalid_token \(1 attempt, \d+ ms\)$/);
      expect(lines[2]).toMatch(/^finance-mail {3}email {4}NOT delivered: connection refused by 127\.0\.0\.1:\d+ \(ECONNREFUSED\)/);
      expect(lines[3]).toMatch(/^cron-monitor {3}ping {5}delivered/);
      expect(result.stderr).toMatch(/^payexport: 3 of 4 destination\(s\) did not take the test message\n$/);
      expectNoSecrets([SMTP_PASSWORD, SLACK_PATH], { texts: [result.stdout, result.stderr] });
    } finally {
      slack.setBehaviour({ kind: 'ok' });
    }
  });
});
