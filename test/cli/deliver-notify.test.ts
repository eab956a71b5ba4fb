import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { simpleParser } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, describeRun, runCli } from '../support/cli/cli.js';
import { closedPort } from '../support/cli/closed-port.js';
import { startTestSim, type TestSim } from '../support/cli/sim.js';
import { workspace } from '../support/cli/workspace.js';
import { makeTestCertificate, startHttpReceiver, startSmtpReceiver, type HttpReceiver, type SmtpReceiver, type TestCertificate } from '../support/notify/receivers.js';

/**
 * A failed delivery alone is a failure for `on-failure` (issue 40): the run's exit code stays the
 * one its report earned (0 here), yet the S3 bucket never got the folder, so the webhook and the
 * e-mail told `on-failure` hear of it — and an `on-exceptions` destination does not (the books tie).
 * The same run with its delivery turned off tells neither. Real receivers on loopback: the HTTP
 * receiver and the SMTP server with STARTTLS of test/support/notify.
 */

const ws = workspace('deliver-notify');
const SMTP_PASSWORD = 'smtp-PLANTED-password-40aa';
let sim: TestSim;
let failures: HttpReceiver;
let exceptions: HttpReceiver;
let cert: TestCertificate;
let smtp: SmtpReceiver;
let cwd = '';
let env: Record<string, string> = {};

beforeAll(async () => {
  assertBuilt();
  sim = await startTestSim();
  [failures, exceptions] = await Promise.all([startHttpReceiver(), startHttpReceiver()]);
  cert = makeTestCertificate();
  smtp = await startSmtpReceiver(cert, { user: 'payexport', password: SMTP_PASSWORD });
  cwd = ws.fresh('export');
  const nowhere = await closedPort();
  writeFileSync(
    join(cwd, 'payexport.json'),
    JSON.stringify({
      notify: {
        timeoutMs: 5000,
        destinations: [
          { kind: 'webhook', name: 'ops-failures', url: `${failures.url}/hook`, secretEnv: 'PAYEXPORT_WEBHOOK_SECRET', when: 'on-failure' },
          { kind: 'webhook', name: 'ops-exceptions', url: `${exceptions.url}/hook`, secretEnv: 'PAYEXPORT_WEBHOOK_SECRET', when: 'on-exceptions' },
          { kind: 'email', name: 'finance-mail', host: '127.0.0.1', port: smtp.port, caFile: cert.certPath, from: 'payexport@example.com', to: ['finance@example.com'], user: 'payexport', passwordEnv: 'PAYEXPORT_SMTP_PASSWORD', when: 'on-failure' },
        ],
      },
      delivery: {
        timeoutMs: 5000,
        attempts: 1,
        destinations: [{ kind: 's3', name: 'archive', bucket: 'books', endpoint: `http://127.0.0.1:${nowhere}`, forcePathStyle: true, accessKeyIdEnv: 'PAYEXPORT_S3_KEY_ID', secretAccessKeyEnv: 'PAYEXPORT_S3_SECRET' }],
      },
    }),
  );
  env = { ...sim.env({ keyOf: 1 }), PAYEXPORT_LOG_FORMAT: 'json', PAYEXPORT_WEBHOOK_SECRET: 'whsec_PLANTED-deliver-notify', PAYEXPORT_SMTP_PASSWORD: SMTP_PASSWORD, PAYEXPORT_S3_KEY_ID: 'AKIAPLANTED', PAYEXPORT_S3_SECRET: 's3-PLANTED-secret' };
}, 60_000);

afterAll(async () => {
  await Promise.all([sim?.close(), failures?.close(), exceptions?.close(), smtp?.close()]);
  cert?.remove();
  ws.remove();
});

const october = (extra: string[] = []): string[] => ['export', '--from', '2026-10-01', '--to', '2026-10-31', '--config', 'payexport.json', '--no-db', ...extra];

describe('on-failure hears of a failed delivery alone', () => {
  it('a run whose books tie and whose delivery failed: exit 0, on-failure told by webhook and e-mail, on-exceptions not', async () => {
    const before = { failures: failures.requests.length, exceptions: exceptions.requests.length, mails: smtp.mails.length };
    const result = await runCli(october(), { cwd, env });
    const context = describeRun(['export'], result);
    expect(result.code, context).toBe(0);
    expect(result.stdout, context).toMatch(/delivery {2}archive .*FAILED after 1 attempt\(s\): /);
    const told = failures.requests.slice(before.failures);
    expect(told, context).toHaveLength(1);
    const message = JSON.parse(told[0]!.body.toString('utf8')) as { exit_code: number; headline: string; delivery: Array<{ destination: string; outcome: string }> };
    expect(message.exit_code).toBe(0);
    expect(message.headline).toMatch(/ties out \(exit 0\) — delivery FAILED to archive/);
    expect(message.delivery).toEqual([expect.objectContaining({ destination: 'archive', outcome: 'failed' })]);
    const mails = smtp.mails.slice(before.mails);
    expect(mails, context).toHaveLength(1);
    expect((await simpleParser(mails[0]!.raw)).subject).toMatch(/delivery FAILED to archive/);
    expect(exceptions.requests.slice(before.exceptions)).toEqual([]);
  }, 120_000);

  it('the same run with its delivery off tells no on-failure destination', async () => {
    const before = { failures: failures.requests.length, mails: smtp.mails.length };
    const result = await runCli(october(['--no-deliver']), { cwd, env });
    expect(result.code, describeRun(['export'], result)).toBe(0);
    expect(failures.requests.slice(before.failures)).toEqual([]);
    expect(smtp.mails.slice(before.mails)).toEqual([]);
  }, 120_000);
});
