/**
 * The one way payexport opens an SMTP transport: TLS by default (implicit TLS with `secure`, or
 * STARTTLS that must succeed unless `starttls: opportunistic`), certificates verified, optional
 * login. Sending a report (send-email.ts) and doctor's reachability check use the same transport,
 * so what doctor verifies is what the run will use.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Transporter } from 'nodemailer';
import type { EmailDestination } from '../config/notify-schema.js';

/** nodemailer is loaded by the runs that send mail, not by every run: a job that sends none should not carry it in its memory. */
export async function smtpTransport(d: EmailDestination, password: string | undefined, timeoutMs: number, cwd: string): Promise<Transporter> {
  const { default: nodemailer } = await import('nodemailer');
  const ca = d.caFile === undefined ? undefined : readFileSync(resolve(cwd, d.caFile), 'utf8');
  return nodemailer.createTransport({
    host: d.host,
    port: d.port,
    secure: d.secure,
    requireTLS: !d.secure && d.starttls === 'required',
    connectionTimeout: timeoutMs,
    greetingTimeout: timeoutMs,
    socketTimeout: timeoutMs,
    tls: { rejectUnauthorized: true, ...(ca === undefined ? {} : { ca }) },
    ...(d.user === undefined ? {} : { auth: { user: d.user, pass: password ?? '' } }),
  });
}
