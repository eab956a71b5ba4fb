import { AppError } from '../../util/errors.js';

/**
 * Maps a driver error to the exit-code table: an unreachable or restarting server is temporary
 * (75, cron retries later), rejected credentials are 77, a missing database is configuration (78).
 * Anything else (an SQL error) is returned unchanged: it is a bug or a data problem, not the
 * environment. `target` must already be redacted.
 */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EPIPE']);

/** SQLSTATEs of a server that is down, starting, shutting down or full (PostgreSQL appendix A). */
const UNAVAILABLE_SQLSTATES = new Set(['57P01', '57P02', '57P03', '53300', '08000', '08001', '08003', '08004', '08006']);

export function classifyDbError(error: unknown, target: string): unknown {
  if (error instanceof AppError || !(error instanceof Error)) return error;
  const code = (error as { code?: unknown }).code;
  const message = error.message;
  if ((typeof code === 'string' && (NETWORK_CODES.has(code) || UNAVAILABLE_SQLSTATES.has(code))) || /Connection terminated|timeout expired|Connection ended|is not queryable/i.test(message)) {
    return new AppError('tempFail', 'database_unavailable', `database ${target} is unavailable (${typeof code === 'string' ? code : message}); try again later`, { cause: error, details: { target } });
  }
  // a statement cancelled by lock_timeout (55P03) or statement_timeout / a cancel (57014): another
  // session held a lock or the server was slow; the transaction rolled back whole, so the run is
  // resumable from its checkpoints — temporary, like a server that is away (PROC-12)
  if (code === '55P03' || code === '57014') {
    const why = code === '55P03' ? 'a statement waited longer than lock_timeout for a lock another session holds' : 'a statement was cancelled (statement_timeout)';
    return new AppError('tempFail', 'database_timeout', `database ${target}: ${why} (${code}); try again later`, { cause: error, details: { target, code } });
  }
  if (code === '28P01' || code === '28000') {
    return new AppError('noPerm', 'database_auth_failed', `database ${target} rejected the credentials (${code})`, { cause: error, details: { target } });
  }
  if (code === '42501') {
    return new AppError('noPerm', 'database_permission_denied', `database ${target}: permission denied (${message})`, { cause: error, details: { target } });
  }
  if (code === '3D000') {
    return new AppError('config', 'database_not_found', `database ${target} does not exist`, { cause: error, details: { target } });
  }
  return error;
}
