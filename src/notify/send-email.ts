/**
 * The e-mail destination over SMTP with nodemailer: TLS by default (implicit TLS with `secure`, or
 * STARTTLS that must succeed unless `starttls: opportunistic`), certificates verified, optional
 * login, `exceptions.csv` attached only when the config asks for it.
 */
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { EmailDestination } from '../config/notify-schema.js';
import { DeliveryError } from '../util/delivery-error.js';
import { renderEmail } from './render-email.js';
import { smtpTransport } from './smtp-transport.js';
import { attemptDelivery, type AttemptsOutcome, type DeliveryRetryPolicy } from '../util/delivery-attempts.js';
import type { RunMessage } from './run-message.js';

/** Above this, exceptions.csv stays in the report folder and the mail says so. */
export const MAX_ATTACHMENT_BYTES = 5 * 1024 * 1024;
export const EXCEPTIONS_FILE = 'exceptions.csv';

export interface EmailInput {
  destination: EmailDestination;
  password: string | undefined;
  message: RunMessage;
  policy: DeliveryRetryPolicy;
  cwd: string;
}

export async function sendEmail(input: EmailInput): Promise<AttemptsOutcome> {
  const d = input.destination;
  const attachment = d.attachExceptions ? await exceptionsAttachment(input.message) : { path: null, note: undefined };
  const content = renderEmail(input.message, attachment.note === undefined ? {} : { attachmentNote: attachment.note });
  return attemptDelivery(input.policy, async (timeoutMs) => {
    const transport = await smtpTransport(d, input.password, timeoutMs, input.cwd);
    let timer: NodeJS.Timeout | undefined;
    try {
      const deadline = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new DeliveryError(`no answer from ${d.host}:${d.port} within ${timeoutMs} ms`, true)), timeoutMs);
      });
      await Promise.race([
        transport.sendMail({
          from: d.from,
          to: d.to,
          subject: content.subject,
          text: content.text,
          html: content.html,
          ...(attachment.path === null ? {} : { attachments: [{ filename: EXCEPTIONS_FILE, path: attachment.path, contentType: 'text/csv; charset=utf-8' }] }),
        }),
        deadline,
      ]);
    } catch (error) {
      throw smtpFailure(error, `${d.host}:${d.port}`);
    } finally {
      clearTimeout(timer);
      transport.close();
    }
  });
}

async function exceptionsAttachment(message: RunMessage): Promise<{ path: string | null; note: string | undefined }> {
  if (message.report === null) return { path: null, note: 'exceptions.csv: no report was published, nothing to attach.' };
  const path = join(message.report.folder, EXCEPTIONS_FILE);
  try {
    const { size } = await stat(path);
    if (size > MAX_ATTACHMENT_BYTES) return { path: null, note: `exceptions.csv (${size} bytes) is too large to attach; it is in the report folder.` };
    return { path, note: 'Attached: exceptions.csv (every finding of the run).' };
  } catch {
    return { path: null, note: 'exceptions.csv was not written by this run (no CSV format), nothing attached.' };
  }
}

interface SmtpError {
  code?: string;
  responseCode?: number;
  response?: string;
  message?: string;
  cause?: unknown;
}

function smtpFailure(error: unknown, host: string): DeliveryError {
  if (error instanceof DeliveryError) return error;
  const e = (error ?? {}) as SmtpError;
  const words = (e.response ?? e.message ?? String(error)).replace(/\s+/g, ' ').trim().slice(0, 200);
  if (typeof e.responseCode === 'number') {
    if (e.code === 'EAUTH') return new DeliveryError(`SMTP ${host} refused the login: ${words}`, false);
    return new DeliveryError(`SMTP ${e.responseCode} from ${host}: ${words}`, e.responseCode >= 400 && e.responseCode < 500);
  }
  const message = e.message ?? '';
  if (e.code === 'EDNS' || /ENOTFOUND/.test(message)) return new DeliveryError(`DNS: ${host} does not resolve (${e.code ?? 'ENOTFOUND'})`, false);
  if (e.code === 'ETLS' || /certificate|TLS|SSL/i.test(message)) return new DeliveryError(`TLS: ${host}: ${words}`, false);
  if (/ECONNREFUSED/.test(message)) return new DeliveryError(`connection refused by ${host} (ECONNREFUSED)`, true);
  if (e.code === 'ETIMEDOUT' || /timeout/i.test(message)) return new DeliveryError(`no answer from ${host} in time (${e.code ?? 'timeout'})`, true);
  return new DeliveryError(`SMTP ${host}: ${words}${e.code ? ` (${e.code})` : ''}`, true);
}
