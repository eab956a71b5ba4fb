/**
 * Why an SFTP step failed, as a DeliveryError: a changed or unknown host key (both fingerprints
 * named, never retried), credentials refused (never retried: the same key fails again), a full disk
 * or quota, a server that cannot be reached or cut the connection (retried). The words come from
 * ssh2 and the server, never from the credentials.
 */
import { DeliveryError, networkFailure } from '../util/delivery-error.js';

export interface SftpContext {
  label: string;
  /** what was being done, e.g. `write month-end/.2026-10.part-…/payments.csv` */
  doing: string;
  pinned: string;
  /** the fingerprint the server showed, once it showed one */
  seen: string | null;
  user: string;
}

export function sftpFailure(error: unknown, ctx: SftpContext): DeliveryError {
  if (error instanceof DeliveryError) return error;
  const text = (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';
  if (ctx.seen !== null && ctx.seen !== ctx.pinned) {
    return new DeliveryError(`${ctx.label}: host key refused: the server shows ${ctx.seen}, the config pins ${ctx.pinned} (if the server's key really changed, check it with the server's owner, then update hostKey)`, false);
  }
  if (/authentication methods failed|authentication failed/i.test(text)) {
    return new DeliveryError(`${ctx.label}: the server refused ${ctx.user}'s credentials (check the key or password the config points to, and the server's authorized_keys)`, false);
  }
  if (/no space|quota|ENOSPC|EDQUOT/i.test(text)) {
    return new DeliveryError(`${ctx.label}: ${ctx.doing}: the server's disk is full or the quota is used up (${clip(text)})`, false);
  }
  if (/permission denied|EACCES/i.test(text)) {
    return new DeliveryError(`${ctx.label}: ${ctx.doing}: permission denied on the server (${clip(text)})`, false);
  }
  if (/^(\w+: )*(_?put|write|_put|fastPut)?.*\bFailure\b/i.test(text) && /^write /.test(ctx.doing)) {
    // OpenSSH's sftp-server answers a failed write (ENOSPC among others) with the bare status "Failure"
    return new DeliveryError(`${ctx.label}: ${ctx.doing}: the server could not write the file (${clip(text)}: a full disk or quota is the usual cause)`, false);
  }
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && /^E[A-Z]+$/.test(code)) {
    const net = networkFailure(error, ctx.label, false, 0);
    return new DeliveryError(`${ctx.doing}: ${net.message}`, net.retryable);
  }
  if (/timed out|timeout/i.test(text)) return new DeliveryError(`${ctx.label}: ${ctx.doing}: no answer in time (${clip(text)})`, true);
  // a connection cut mid-transfer, a server that went away: another attempt may well succeed
  return new DeliveryError(`${ctx.label}: ${ctx.doing}: ${clip(text)}`, true);
}

function clip(text: string): string {
  return text.length > 200 ? `${text.slice(0, 199)}…` : text;
}
