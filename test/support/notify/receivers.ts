/**
 * Real servers on loopback that notifications are delivered to: an HTTP receiver that records every
 * request (raw body bytes included) and answers as told (ok, a status, slowly, never), an SMTP
 * server (smtp-server) with STARTTLS on a certificate made for the test by openssl, and a closed
 * port. Each recorded event gets a global sequence number, so tests can order them against the
 * simulator's request log.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SMTPServer } from 'smtp-server';

export interface RecordedRequest {
  seq: number;
  /** wall-clock arrival (compared with the simulator's request log `at`) */
  at: number;
  method: string;
  path: string;
  headers: Record<string, string>;
  body: Buffer;
}

/** What the receiver does with a request: answer 200 "ok", answer `status` with `text`, wait first, or never answer. */
export type Behaviour = { kind: 'ok' } | { kind: 'status'; status: number; text: string } | { kind: 'slow'; delayMs: number } | { kind: 'hang' };

let sequence = 0;
export const nextSeq = (): number => ++sequence;

export interface HttpReceiver {
  url: string;
  requests: RecordedRequest[];
  /** requests whose answer is still pending (a hanging destination) */
  pending(): number;
  setBehaviour(behaviour: Behaviour): void;
  close(): Promise<void>;
}

export async function startHttpReceiver(initial: Behaviour = { kind: 'ok' }): Promise<HttpReceiver> {
  let behaviour = initial;
  const requests: RecordedRequest[] = [];
  const open = new Set<ServerResponse>();
  const sockets = new Set<Socket>();
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers)) headers[k] = Array.isArray(v) ? v.join(', ') : (v ?? '');
      requests.push({ seq: nextSeq(), at: Date.now(), method: req.method ?? '', path: req.url ?? '', headers, body: Buffer.concat(chunks) });
      const b = behaviour;
      if (b.kind === 'hang') {
        open.add(res);
        return;
      }
      const answer = (status: number, text: string): void => {
        res.writeHead(status, { 'content-type': 'text/plain' }).end(text);
      };
      if (b.kind === 'ok') answer(200, 'ok');
      else if (b.kind === 'status') answer(b.status, b.text);
      else {
        open.add(res);
        setTimeout(() => {
          open.delete(res);
          answer(200, 'ok');
        }, b.delayMs).unref();
      }
    });
  });
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    pending: () => [...open].filter((r) => !r.writableEnded).length,
    setBehaviour: (b) => {
      behaviour = b;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

export interface TestCertificate {
  dir: string;
  certPath: string;
  key: string;
  cert: string;
  remove(): void;
}

/** A self-signed certificate for 127.0.0.1 and localhost, valid one day, made by openssl. */
export function makeTestCertificate(): TestCertificate {
  const dir = mkdtempSync(join(tmpdir(), 'payexport-cert-'));
  const keyPath = join(dir, 'key.pem');
  const certPath = join(dir, 'cert.pem');
  execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', keyPath, '-out', certPath, '-days', '1', '-subj', '/CN=localhost', '-addext', 'subjectAltName=IP:127.0.0.1,DNS:localhost'], { stdio: 'ignore' });
  return { dir, certPath, key: readFileSync(keyPath, 'utf8'), cert: readFileSync(certPath, 'utf8'), remove: () => rmSync(dir, { recursive: true, force: true }) };
}

export interface ReceivedMail {
  seq: number;
  from: string;
  to: string[];
  /** the DATA bytes exactly as received */
  raw: Buffer;
  /** whether the session had been upgraded with STARTTLS */
  secure: boolean;
  user: string | null;
}

export interface SmtpReceiver {
  port: number;
  mails: ReceivedMail[];
  close(): Promise<void>;
}

/** smtp-server on 127.0.0.1 offering STARTTLS with `certificate`; optional login (user/password). */
export async function startSmtpReceiver(certificate: TestCertificate, login?: { user: string; password: string }): Promise<SmtpReceiver> {
  const mails: ReceivedMail[] = [];
  const server = new SMTPServer({
    secure: false,
    key: certificate.key,
    cert: certificate.cert,
    authOptional: login === undefined,
    ...(login === undefined ? { disabledCommands: ['AUTH'] } : {}),
    // AUTH only after STARTTLS (the default): a password never crosses in clear
    allowInsecureAuth: false,
    logger: false,
    onAuth(auth, _session, callback) {
      if (login && auth.username === login.user && auth.password === login.password) callback(null, { user: auth.username });
      else callback(new Error('535 5.7.8 authentication credentials invalid'));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        mails.push({
          seq: nextSeq(),
          from: session.envelope.mailFrom === false ? '' : session.envelope.mailFrom.address,
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks),
          secure: session.secure,
          user: typeof session.user === 'string' ? session.user : null,
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return { port, mails, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
