/**
 * Why one attempt to deliver failed, in words an on-call engineer can act on (DNS, refused, TLS,
 * timeout, the server's own words for a 4xx), and whether another attempt could help. Never the
 * destination's full URL: for Slack and pings the URL is the credential, so only the host is named.
 */
export class DeliveryError extends Error {
  override readonly name = 'DeliveryError';
  constructor(
    message: string,
    readonly retryable: boolean,
    /** server-requested wait (Retry-After), when it gave one */
    readonly retryAfterMs: number | null = null,
  ) {
    super(message);
  }
}

const TLS_CODE = /^(ERR_TLS_|ERR_SSL_|CERT_|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_VERIFY_LEAF_SIGNATURE|UNABLE_TO_GET_ISSUER_CERT|HOSTNAME_MISMATCH)/;

function codeOf(error: unknown): string | undefined {
  for (let e: unknown = error, depth = 0; e !== null && typeof e === 'object' && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && code !== 'UND_ERR_ABORTED' && code !== 'ABORT_ERR') return code;
  }
  return undefined;
}

function reasonOf(error: unknown): string {
  for (let e: unknown = error, depth = 0; e !== null && typeof e === 'object' && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    const reason = (e as { reason?: unknown }).reason;
    if (typeof reason === 'string' && reason !== '') return reason;
  }
  return error instanceof Error ? error.message : String(error);
}

/** A network-level failure (no HTTP answer) → DeliveryError. `timedOut`: our own deadline fired. */
export function networkFailure(error: unknown, host: string, timedOut: boolean, timeoutMs: number): DeliveryError {
  if (error instanceof DeliveryError) return error;
  if (timedOut) return new DeliveryError(`no answer from ${host} within ${timeoutMs} ms`, true);
  const code = codeOf(error);
  if (code === 'ENOTFOUND') return new DeliveryError(`DNS: ${host} does not resolve (ENOTFOUND)`, false);
  if (code === 'EAI_AGAIN') return new DeliveryError(`DNS: ${host} could not be resolved now (EAI_AGAIN)`, true);
  if (code === 'ECONNREFUSED') return new DeliveryError(`connection refused by ${host} (ECONNREFUSED)`, true);
  if (code !== undefined && TLS_CODE.test(code)) return new DeliveryError(`TLS: ${host}: ${reasonOf(error).split('\n')[0]} (${code})`, false);
  if (code === 'ECONNRESET' || code === 'EPIPE' || code === 'UND_ERR_SOCKET' || code === 'UND_ERR_CLOSED') return new DeliveryError(`${host} closed the connection (${code})`, true);
  if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT' || code === 'ETIMEDOUT') return new DeliveryError(`no answer from ${host} within ${timeoutMs} ms`, true);
  const text = (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';
  return new DeliveryError(`${host}: ${text}${code ? ` (${code})` : ''}`, true);
}

/** An HTTP answer that is not 2xx → DeliveryError with the server's own words (first line, clipped). */
export function httpFailure(status: number, body: string, host: string, retryAfter: string | undefined): DeliveryError {
  const words = body.replace(/\s+/g, ' ').trim().slice(0, 200);
  const retryable = status === 408 || status === 429 || status >= 500;
  const seconds = retryAfter !== undefined && /^\d+$/.test(retryAfter) ? Number(retryAfter) * 1000 : null;
  return new DeliveryError(`HTTP ${status} from ${host}${words ? `: ${words}` : ''}`, retryable, seconds);
}
