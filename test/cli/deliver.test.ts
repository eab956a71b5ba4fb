import { copyFileSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { GetObjectCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, describeRun, runCli, splitStderr, type CliResult } from '../support/cli/cli.js';
import { expectNoSecrets } from '../support/cli/secrets.js';
import { PLANTED_SECRETS, startTestSim, type TestSim } from '../support/cli/sim.js';
import { workspace } from '../support/cli/workspace.js';
import { sha256 } from '../support/delivery/report-folder.js';
import { startS3Server, type S3Server } from '../support/delivery/s3-server.js';
import { sshdUnavailable, startSftpServer, type SftpServer } from '../support/delivery/sftp-server.js';
import { startHttpReceiver, type HttpReceiver } from '../support/notify/receivers.js';

/**
 * Nightly runs (the CLI as a subprocess, against the simulator, `--no-db`) delivering their
 * report folder to a real OpenSSH server, a real S3-compatible server process and a folder, byte
 * for byte; then a run whose S3 server is down: the report and its exit code unchanged, the
 * failure in the summary, the log, the notification and the spool's deliveries file — and
 * `payexport deliver <folder>` heals it without pulling again.
 */

const unavailable = sshdUnavailable();
const ws = workspace('deliver');
const S3_SECRET = 'S3RVER';
let sim: TestSim;
let sftp: SftpServer;
let s3: S3Server;
let webhook: HttpReceiver;
let cwd = '';
let env: Record<string, string> = {};

beforeAll(async () => {
  if (unavailable !== null) return;
  assertBuilt();
  sim = await startTestSim();
  sftp = await startSftpServer();
  s3 = await startS3Server();
  await s3.createBucket('books');
  webhook = await startHttpReceiver();
  cwd = ws.fresh('nightly');
  writeFileSync(
    join(cwd, 'payexport.json'),
    JSON.stringify(
      {
        notify: { destinations: [{ kind: 'webhook', name: 'ops', url: `${webhook.url}/hook`, secretEnv: 'PAYEXPORT_WEBHOOK_SECRET' }] },
        delivery: {
          timeoutMs: 20_000,
          attempts: 2,
          destinations: [
            { kind: 'sftp', name: 'accountant', host: sftp.host, port: sftp.port, user: sftp.user, hostKey: sftp.fingerprint, privateKeyFile: sftp.keyFile, remoteDir: sftp.root },
            { kind: 's3', name: 'archive', bucket: 'books', prefix: 'acme', endpoint: s3.endpoint, forcePathStyle: true, accessKeyIdEnv: 'PAYEXPORT_S3_KEY_ID', secretAccessKeyEnv: 'PAYEXPORT_S3_SECRET' },
            { kind: 'folder', name: 'share', path: 'share' },
          ],
        },
      },
      null,
      2,
    ),
  );
  env = { ...sim.env({ keyOf: 1 }), PAYEXPORT_LOG_FORMAT: 'json', PAYEXPORT_S3_KEY_ID: 'S3RVER', PAYEXPORT_S3_SECRET: S3_SECRET, PAYEXPORT_WEBHOOK_SECRET: 'whsec_PLANTED-deliver-9f1' };
}, 60_000);

afterAll(async () => {
  await sim?.close();
  await sftp?.stop();
  await s3?.stop();
  await webhook?.close();
  ws.remove();
});

function filesOf(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => relative(dir, join(e.parentPath, e.name)))
    .sort();
}

async function s3Object(key: string): Promise<Buffer> {
  const client = s3.client();
  try {
    const got = await client.send(new GetObjectCommand({ Bucket: 'books', Key: key }));
    return Buffer.from(await got.Body!.transformToByteArray());
  } finally {
    client.destroy();
  }
}

async function expectDeliveredEverywhere(dir: string, job: string, folder: string, s3Too = true): Promise<void> {
  const files = filesOf(dir);
  // the signature and the pull's evidence travel with the manifest (docs/audit.md)
  expect(files).toEqual(expect.arrayContaining(['manifest.json', 'manifest.json.sig', 'evidence.jsonl']));
  for (const file of files) {
    const local = readFileSync(join(dir, file));
    expect(sha256(readFileSync(join(sftp.root, job, folder, file))), `sftp ${file}`).toBe(sha256(local));
    expect(readFileSync(join(cwd, 'share', job, folder, file)).equals(local), `share ${file}`).toBe(true);
    if (s3Too) expect((await s3Object(`acme/${job}/${folder}/${file}`)).equals(local), `s3 ${file}`).toBe(true);
  }
}

function run(args: string[]): Promise<CliResult> {
  return runCli([...args, '--config', 'payexport.json', '--no-db'], { cwd, env });
}

describe.skipIf(unavailable !== null)('nightly delivers its folder to SFTP, S3 and a share', () => {
  let firstCode: number | null = null;

  it('delivers every file byte for byte after publishing, and says so in the summary', async () => {
    const result = await run(['nightly', '--date', '2026-11-20']);
    const context = describeRun(['nightly'], result);
    expect([0, 65], context).toContain(result.code);
    firstCode = result.code;
    expect(splitStderr(result.stderr).plain, context).toEqual([]);
    expect(result.stdout).toMatch(/delivery {2}accountant \(sftp:\/\/.*\/nightly\/2026-11-20\): delivered \d+ file\(s\)/);
    expect(result.stdout).toMatch(/delivery {2}archive \(s3:\/\/books\/acme\/nightly\/2026-11-20\/\): delivered/);
    expect(result.stdout).toMatch(/delivery {2}share \(.*\): delivered/);
    await expectDeliveredEverywhere(join(cwd, 'reports/nightly/2026-11-20'), 'nightly', '2026-11-20');
    const rows = readFileSync(join(cwd, 'reports/.state/deliveries.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(rows.map((r) => [r.destination, r.outcome])).toEqual([['accountant', 'delivered'], ['archive', 'delivered'], ['share', 'delivered']]);
  }, 120_000);

  it('a failed delivery keeps the report and its exit code, is told everywhere, and `payexport deliver` heals it', async () => {
    await s3.kill();
    const before = webhook.requests.length;
    const failed = await run(['nightly', '--date', '2026-11-20']);
    const context = describeRun(['nightly'], failed);
    expect(failed.code, context).toBe(firstCode);
    expect(failed.stdout).toMatch(/delivery {2}archive .*FAILED after 2 attempt\(s\): /);
    expect(failed.stdout).toContain('retry the delivery alone with: payexport deliver');
    // the re-run's own folder (a new manifest) replaced the first one where the servers were up
    expect(failed.stdout).toMatch(/delivery {2}accountant .*: delivered/);
    const { logs } = splitStderr(failed.stderr);
    expect(logs.some((l) => l.level === 'warn' && /delivery of nightly\/2026-11-20 to archive failed/.test(String(l.msg)))).toBe(true);
    const message = JSON.parse(webhook.requests.slice(before).at(-1)!.body.toString('utf8')) as { headline: string; delivery: Array<{ destination: string; outcome: string }> };
    expect(message.headline).toMatch(/delivery FAILED to archive/);
    expect(message.delivery).toEqual(expect.arrayContaining([expect.objectContaining({ destination: 'archive', outcome: 'failed' })]));
    const dir = join(cwd, 'reports/nightly/2026-11-20');
    expect(filesOf(dir)).toContain('manifest.json');

    await s3.restart();
    const healed = await runCli(['deliver', 'reports/nightly/2026-11-20', '--config', 'payexport.json', '--no-db'], { cwd, env });
    expect(healed.code, describeRun(['deliver'], healed)).toBe(0);
    expect(healed.stdout).toMatch(/delivery {2}archive .*: (delivered|already there)/);
    expect(healed.stdout).toMatch(/delivery {2}accountant .*already there, unchanged/);
    await expectDeliveredEverywhere(dir, 'nightly', '2026-11-20');
    const rows = readFileSync(join(cwd, 'reports/.state/deliveries.jsonl'), 'utf8');
    expectNoSecrets([...PLANTED_SECRETS, 'whsec_PLANTED-deliver-9f1', readFileSync(sftp.keyFile, 'utf8').split('\n')[1]!], { texts: [failed.stdout, failed.stderr, healed.stdout, healed.stderr, rows, readFileSync(join(dir, 'manifest.json'), 'utf8')] });
  }, 180_000);

  it('`payexport deliver` resumes a delivery cut halfway: what arrived whole stays, the rest is sent, then one rename', async () => {
    const dir = join(cwd, 'reports/nightly/2026-11-20');
    const files = filesOf(dir);
    const jobDir = join(sftp.root, 'nightly');
    rmSync(join(jobDir, '2026-11-20'), { recursive: true });
    // what a cut connection leaves: the hidden partial folder, one file whole, one cut short
    const part = join(jobDir, '.2026-11-20.payexport-part');
    mkdirSync(part);
    copyFileSync(join(dir, 'payments.csv'), join(part, 'payments.csv'));
    const xlsx = readFileSync(join(dir, 'report.xlsx'));
    writeFileSync(join(part, 'report.xlsx'), xlsx.subarray(0, Math.floor(xlsx.length / 2)));
    const resumed = await runCli(['deliver', 'reports/nightly/2026-11-20', '--to', 'accountant', '--config', 'payexport.json', '--no-db'], { cwd, env });
    expect(resumed.code, describeRun(['deliver'], resumed)).toBe(0);
    expect(resumed.stdout).toContain(`delivered ${files.length - 1} file(s)`);
    expect(readdirSync(jobDir).filter((n) => n.includes('2026-11-20'))).toEqual(['2026-11-20']);
    await expectDeliveredEverywhere(dir, 'nightly', '2026-11-20');
  }, 60_000);

  it('--no-deliver: the run publishes its folder and delivers nothing', async () => {
    const rowsBefore = readFileSync(join(cwd, 'reports/.state/deliveries.jsonl'), 'utf8');
    const result = await run(['nightly', '--date', '2026-11-18', '--no-deliver']);
    expect([0, 65], describeRun(['nightly'], result)).toContain(result.code);
    expect(result.stdout).not.toMatch(/^delivery /m);
    expect(filesOf(join(cwd, 'reports/nightly/2026-11-18'))).toContain('manifest.json');
    expect(readdirSync(join(sftp.root, 'nightly'))).not.toContain('2026-11-18');
    expect(readFileSync(join(cwd, 'reports/.state/deliveries.jsonl'), 'utf8')).toBe(rowsBefore);
  }, 120_000);

  it('`payexport deliver` refuses a folder that is not a report (64) and names an unknown destination (78)', async () => {
    const notReport = await runCli(['deliver', 'share', '--config', 'payexport.json', '--no-db'], { cwd, env });
    expect(notReport.code).toBe(64);
    expect(notReport.stderr).toMatch(/^payexport: .*no manifest\.json/m);
    const unknown = await runCli(['deliver', 'reports/nightly/2026-11-20', '--to', 'nowhere', '--config', 'payexport.json', '--no-db'], { cwd, env });
    expect(unknown.code).toBe(78);
  }, 60_000);
});
