/**
 * Each notification destination reachable, without sending anything a person would read: an SMTP
 * relay is asked to greet, upgrade to TLS and accept the login (nodemailer's `verify`, which ends
 * before any mail), an HTTP destination is connected to (TCP, and TLS with its certificate
 * checked for https) and left before a request is made. Slack and ping URLs are secrets: only
 * their host is named.
 */
import { connect as connectTcp } from 'node:net';
import { connect as connectTls } from 'node:tls';
import type { DestinationConfig, EmailDestination } from '../../../config/notify-schema.js';
import { resolveDestinations } from '../../../notify/destination-secrets.js';
import { smtpTransport } from '../../../notify/smtp-transport.js';
import { fail, pass, type CheckLine, type DoctorCheck } from '../check.js';

/** Connects to the URL's host and port (with TLS for https) and hangs up; resolves with `host:port`. */
export function reachHttp(url: string, timeoutMs: number): Promise<string> {
  const parsed = new URL(url);
  const secure = parsed.protocol === 'https:';
  const port = Number(parsed.port || (secure ? 443 : 80));
  const host = parsed.hostname.replace(/^\[|\]$/g, '');
  const where = `${parsed.hostname}:${port}`;
  return new Promise<string>((done, failed) => {
    const socket = secure ? connectTls({ host, port, servername: host, rejectUnauthorized: true }) : connectTcp({ host, port });
    const timer = setTimeout(() => socket.destroy(new Error(`no answer from ${where} within ${timeoutMs} ms`)), timeoutMs);
    socket.once(secure ? 'secureConnect' : 'connect', () => {
      clearTimeout(timer);
      socket.end();
      socket.destroy();
      done(where);
    });
    socket.once('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      failed(new Error(`cannot reach ${where}${error.code ? ` (${error.code})` : `: ${error.message}`}`));
    });
  });
}

async function reachSmtp(d: EmailDestination, password: string | undefined, timeoutMs: number, cwd: string): Promise<string> {
  const transport = await smtpTransport(d, password, timeoutMs, cwd);
  try {
    await transport.verify();
    return `${d.host}:${d.port} greeted${d.secure || d.starttls === 'required' ? ', TLS' : ''}${d.user === undefined ? '' : ', login accepted'}`;
  } finally {
    transport.close();
  }
}

function urlOf(d: DestinationConfig, secret: string | undefined): string | undefined {
  return d.kind === 'webhook' ? d.url : d.kind === 'slack' || d.kind === 'ping' ? secret : undefined;
}

export const notifyDestinationsCheck: DoctorCheck = {
  id: 'notify-destinations',
  async run(ctx) {
    const { notify } = ctx.loaded.config;
    if (notify.destinations.length === 0) return [pass('notification destinations', 'none configured')];
    const lines: CheckLine[] = [];
    for (const resolved of resolveDestinations(notify.destinations, ctx.env, ctx.cwd, ctx.scrubber)) {
      const d = resolved.config;
      const title = `notify ${d.name} (${d.kind})`;
      if (resolved.problem !== null) {
        lines.push(fail(title, resolved.problem, 'set the variable or file the config names for this destination'));
        continue;
      }
      try {
        const url = urlOf(d, resolved.secret);
        const reached = d.kind === 'email' ? await reachSmtp(d, resolved.secret, notify.timeoutMs, ctx.cwd) : `${await reachHttp(url ?? '', notify.timeoutMs)} reachable`;
        lines.push(pass(title, `${reached} (nothing sent)`));
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        lines.push(fail(title, message, d.kind === 'email' ? `check host, port, TLS and login of ${d.name}, then payexport notify test` : `check the URL of ${d.name} and this machine's outbound network, then payexport notify test`));
      }
    }
    return lines;
  },
};
