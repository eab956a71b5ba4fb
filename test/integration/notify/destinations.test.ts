import { createHmac, timingSafeEqual } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { simpleParser } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EmailDestination } from '../../../src/config/notify-schema.js';
import type { RunMessage } from '../../../src/notify/run-message.js';
import { sampleMessage } from '../../../src/notify/sample-message.js';
import { sendEmail } from '../../../src/notify/send-email.js';
import { sendPing, sendSlack, sendWebhook, WEBHOOK_HEADERS } from '../../../src/notify/send-http.js';
import { SLACK_MAX_BLOCKS, SLACK_MAX_HEADER_TEXT, SLACK_MAX_SECTION_TEXT } from '../../../src/notify/render-slack.js';
import { closedPort } from '../../support/cli/closed-port.js';
import { makeTestCertificate, startHttpReceiver, startSmtpReceiver, type HttpReceiver, type SmtpReceiver, type TestCertificate } from '../../support/notify/receivers.js';

/**
 * Each destination against a real server on loopback: the webhook's signature checked by an
 * independent HMAC (node:crypto here, not src/util/webhook-signature.ts), Slack's payload against
 * Block Kit's documented limits, the e-mail over STARTTLS read back with mailparser, and the faults
 * (hang, 500, refused, slow, 4xx, DNS, an untrusted certificate) each ending in its own words.
 */

const SECRET = 'whsec_PLANTED-notify-secret-5f1d9a7c';
let receiver: HttpReceiver;
let cert: TestCertificate;
let smtp: SmtpReceiver;
let folder: string;

beforeAll(async () => {
  receiver = await startHttpReceiver();
  cert = makeTestCertificate();
  smtp = await startSmtpReceiver(cert, { user: 'payexport', password: 'smtp-PLANTED-password-91c2' });
  folder = mkdtempSync(join(tmpdir(), 'payexport-notify-'));
  writeFileSync(join(folder, 'exceptions.csv'), 'check_id,severity\r\npayment.ledger_match,error\r\n');
  writeFileSync(join(folder, 'manifest.json'), '{}\n');
});

afterAll(async () => {
  await receiver?.close();
  await smtp?.close();
  cert?.remove();
  if (folder) rmSync(folder, { recursive: true, force: true });
});

const policy = { budgetMs: 5000, attempts: 3, sleep: () => Promise.resolve() };

function message(overrides: Partial<RunMessage> = {}): RunMessage {
  return { ...sampleMessage('20261125T000000Z-abcdef01', new Date('2026-11-25T06:00:00Z')), ...overrides };
}

/** The service's scheme, written again from its description: base64(HMAC-SHA256(literal secret, raw body + "." + timestamp)). */
function independentlyVerifies(secret: string, body: Buffer, timestamp: string, signature: string): boolean {
  const expected = createHmac('sha256', Buffer.from(secret, 'utf8')).update(Buffer.concat([body, Buffer.from(`.${timestamp}`)])).digest();
  const given = Buffer.from(signature, 'base64');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

describe('generic webhook', () => {
  it('POSTs the versioned JSON, signed over the raw body and the timestamp header', async () => {
    receiver.setBehaviour({ kind: 'ok' });
    const before = receiver.requests.length;
    const outcome = await sendWebhook({ url: `${receiver.url}/hooks/payexport`, secret: SECRET, deliveryId: 'run-1.finance', message: message(), policy });
    expect(outcome).toEqual({ ok: true, attempts: 1, detail: 'delivered' });
    const [request] = receiver.requests.slice(before);
    expect(request!.path).toBe('/hooks/payexport');
    expect(request!.headers['content-type']).toMatch(/^application\/json/);
    const timestamp = request!.headers[WEBHOOK_HEADERS.timestamp]!;
    expect(timestamp).toMatch(/^\d{10}$/);
    expect(independentlyVerifies(SECRET, request!.body, timestamp, request!.headers[WEBHOOK_HEADERS.signature]!)).toBe(true);
    expect(independentlyVerifies('another-secret', request!.body, timestamp, request!.headers[WEBHOOK_HEADERS.signature]!)).toBe(false);
    expect(request!.headers[WEBHOOK_HEADERS.deliveryId]).toBe('run-1.finance');
    expect(request!.headers[WEBHOOK_HEADERS.event]).toBe('run.test');
    const body = JSON.parse(request!.body.toString('utf8')) as RunMessage;
    expect(body.schema).toBe('payexport.run/v1');
    expect(body.exceptions[0]!.wallet_name).toBe('Sample wallet');
    expect(request!.body.includes(Buffer.from(SECRET))).toBe(false);
  });
});

describe('Slack', () => {
  it('a Block Kit message within the documented limits, even with many long exceptions', async () => {
    const before = receiver.requests.length;
    const long = Array.from({ length: 20 }, (_, i) => ({ ...message().exceptions[0]!, text: `error payment.ledger_match — wallet ${i} <&>: ${'x'.repeat(390)}` }));
    const outcome = await sendSlack(`${receiver.url}/services/T000/B000/PLANTED`, message({ exceptions: long, headline: 'h'.repeat(400) }), policy);
    expect(outcome.ok).toBe(true);
    const payload = JSON.parse(receiver.requests[before]!.body.toString('utf8')) as { text: string; blocks: Array<Record<string, unknown>> };
    expect(typeof payload.text).toBe('string');
    expect(payload.blocks.length).toBeGreaterThan(0);
    expect(payload.blocks.length).toBeLessThanOrEqual(SLACK_MAX_BLOCKS);
    // every listed exception arrives whole, spread over as many sections as the limit needs
    const allText = payload.blocks.map((b) => (b.text as { text?: string } | undefined)?.text ?? '').join('\n');
    for (let i = 0; i < 20; i++) expect(allText).toContain(`wallet ${i} &lt;&amp;&gt;: ${'x'.repeat(390)}`);
    for (const block of payload.blocks) {
      expect(['header', 'section', 'context', 'divider']).toContain(block.type);
      const text = block.text as { type: string; text: string } | undefined;
      if (block.type === 'header') {
        expect(text!.type).toBe('plain_text');
        expect(text!.text.length).toBeLessThanOrEqual(SLACK_MAX_HEADER_TEXT);
      }
      if (block.type === 'section') {
        expect(text!.type).toBe('mrkdwn');
        expect(text!.text.length).toBeGreaterThan(0);
        expect(text!.text.length).toBeLessThanOrEqual(SLACK_MAX_SECTION_TEXT);
        // &, < and > are escaped (a raw < would open a Slack link or mention)
        expect(text!.text).not.toMatch(/<|>|&(?!amp;|lt;|gt;)/);
      }
    }
  });
});

describe('e-mail over SMTP with STARTTLS', () => {
  const destination = (extra: Partial<EmailDestination> = {}): EmailDestination => ({
    kind: 'email',
    name: 'finance-mail',
    when: 'always',
    host: '127.0.0.1',
    port: smtp.port,
    secure: false,
    starttls: 'required',
    caFile: cert.certPath,
    from: 'payexport@example.com',
    to: ['finance@example.com', 'oncall@example.com'],
    user: 'payexport',
    attachExceptions: false,
    ...extra,
  });

  it('sends subject, summary lines and exceptions; attaches exceptions.csv only when asked', async () => {
    const m = message({ report: { folder, manifest_sha256: 'a'.repeat(64) } });
    const plain = await sendEmail({ destination: destination(), password: 'smtp-PLANTED-password-91c2', message: m, policy, cwd: process.cwd() });
    expect(plain).toMatchObject({ ok: true, attempts: 1 });
    const attached = await sendEmail({ destination: destination({ attachExceptions: true }), password: 'smtp-PLANTED-password-91c2', message: m, policy, cwd: process.cwd() });
    expect(attached.ok).toBe(true);
    const [first, second] = smtp.mails.slice(-2);
    expect(first!.secure, 'upgraded with STARTTLS').toBe(true);
    expect(first!.user).toBe('payexport');
    expect(first!.to).toEqual(['finance@example.com', 'oncall@example.com']);
    const mail = await simpleParser(first!.raw);
    expect(mail.subject).toBe(m.headline);
    expect(mail.text).toContain('Tie-out:');
    expect(mail.text).toContain('does NOT tie');
    expect(mail.text).toMatch(/^Manifest sha256:\s+a{64}$/m);
    expect(mail.text).toContain('Sample wallet (BTC)');
    expect(mail.html).toContain('<table');
    expect(mail.attachments).toHaveLength(0);
    const withFile = await simpleParser(second!.raw);
    expect(withFile.attachments.map((a) => a.filename)).toEqual(['exceptions.csv']);
    expect(withFile.attachments[0]!.content.toString('utf8')).toContain('payment.ledger_match,error');
    for (const raw of [first!.raw, second!.raw]) expect(raw.includes(Buffer.from('smtp-PLANTED-password-91c2'))).toBe(false);
  });

  it('refuses a server certificate it cannot verify (TLS), and says so', async () => {
    const { caFile: _ca, ...noCa } = destination();
    const outcome = await sendEmail({ destination: noCa, password: 'smtp-PLANTED-password-91c2', message: message(), policy, cwd: process.cwd() });
    expect(outcome.ok).toBe(false);
    expect(outcome.detail).toMatch(/^TLS: 127\.0\.0\.1:\d+: .*certificate/i);
    expect(outcome.attempts, 'a TLS failure is not retried').toBe(1);
  });

  it('a refused login is reported with the server words, not retried', async () => {
    const outcome = await sendEmail({ destination: destination(), password: 'wrong', message: message(), policy, cwd: process.cwd() });
    expect(outcome).toMatchObject({ ok: false, attempts: 1 });
    expect(outcome.detail).toMatch(/refused the login: .*535/);
  });
});

describe('faults: each ends within its budget with the reason', () => {
  it('a server that answers 500 is retried, then reported with its words', async () => {
    receiver.setBehaviour({ kind: 'status', status: 500, text: 'upstream exploded' });
    const outcome = await sendSlack(`${receiver.url}/x`, message(), policy);
    expect(outcome).toEqual({ ok: false, attempts: 3, detail: `HTTP 500 from ${new URL(receiver.url).host}: upstream exploded` });
  });

  it('a 4xx is not retried and keeps the server words', async () => {
    receiver.setBehaviour({ kind: 'status', status: 404, text: 'no_service' });
    const outcome = await sendSlack(`${receiver.url}/x`, message(), policy);
    expect(outcome).toEqual({ ok: false, attempts: 1, detail: `HTTP 404 from ${new URL(receiver.url).host}: no_service` });
  });

  it('a server that never answers: attempts time out inside the budget', async () => {
    receiver.setBehaviour({ kind: 'hang' });
    const outcome = await sendPing(`${receiver.url}/ping/abc`, 'start', null, { budgetMs: 600, attempts: 2, sleep: () => Promise.resolve() });
    expect(outcome.ok).toBe(false);
    expect(outcome.attempts).toBe(2);
    expect(outcome.detail).toMatch(/^no answer from 127\.0\.0\.1:\d+ within \d+ ms$/);
  });

  it('a slow server that answers inside the budget is delivered', async () => {
    receiver.setBehaviour({ kind: 'slow', delayMs: 200 });
    const outcome = await sendPing(`${receiver.url}/ping/abc`, 'start', null, policy);
    expect(outcome).toEqual({ ok: true, attempts: 1, detail: 'delivered' });
  });

  it('a refused connection is retried, then reported', async () => {
    const port = await closedPort();
    const outcome = await sendPing(`http://127.0.0.1:${port}/ping`, 'start', null, policy);
    expect(outcome).toEqual({ ok: false, attempts: 3, detail: `connection refused by 127.0.0.1:${port} (ECONNREFUSED)` });
  });

  it('a host that does not resolve is a DNS failure', async () => {
    const outcome = await sendPing('http://payexport-notify-test.invalid/ping', 'start', null, policy);
    expect(outcome.ok).toBe(false);
    expect(outcome.detail).toMatch(/^DNS: payexport-notify-test\.invalid (does not resolve|could not be resolved)/);
  });
});
