/**
 * Redaction by VALUE (docs/reliability.md#secrets, SEC-01): every loaded secret is replaced, in any string
 * that leaves the api/ module or reaches a log line, in the forms it can take on the way out —
 * raw, URL-encoded, JSON-escaped and base64/base64url (at each of the three byte alignments, so a
 * secret embedded in a larger base64 blob such as `Basic …` is caught too). Passwords in URLs
 * (`postgres://user:pw@host`) are masked whether or not they were registered (SEC-04).
 *
 * One instance per run, shared by the HTTP client and the logger; `add` is open so secrets loaded
 * later (a second environment's key) are covered from then on.
 */
export const REDACTED = '[REDACTED]';

/** Shorter values would mask ordinary words; the service's keys and tokens are far longer. */
const MIN_SECRET_LENGTH = 6;

// user and password never cross a quote, backslash or comma, so a match stays inside one JSON string
const URL_USERINFO = /([a-z][a-z0-9+.-]*:\/\/)([^/?#@\s:"'\\,<>]*):([^/?#@\s"'\\,<>]*)@/gi;

export class SecretScrubber {
  private readonly needles = new Set<string>();
  private pattern: RegExp | null = null;

  constructor(secrets: Iterable<string | undefined | null> = []) {
    for (const secret of secrets) this.add(secret);
  }

  /** Registers a secret (and its encoded forms). Empty and very short values are ignored. */
  add(secret: string | undefined | null): this {
    if (typeof secret !== 'string') return this;
    const trimmed = secret.trim();
    for (const value of new Set([secret, trimmed])) {
      if (value.length < MIN_SECRET_LENGTH) continue;
      for (const form of encodedForms(value)) {
        if (form.length >= MIN_SECRET_LENGTH) this.needles.add(form);
      }
    }
    this.pattern = null;
    return this;
  }

  get size(): number {
    return this.needles.size;
  }

  /** The text with every registered secret form and every URL password replaced. */
  scrub(text: string): string {
    let out = text.includes('://') ? text.replace(URL_USERINFO, (_m, scheme: string, user: string) => `${scheme}${user}:${REDACTED}@`) : text;
    if (this.needles.size === 0) return out;
    this.pattern ??= new RegExp([...this.needles].sort((a, b) => b.length - a.length).map(escapeRegExp).join('|'), 'g');
    out = out.replace(this.pattern, REDACTED);
    return out;
  }

  /** True when the text still holds a registered secret in any form (for tests and assertions). */
  leaks(text: string): boolean {
    for (const needle of this.needles) if (text.includes(needle)) return true;
    return false;
  }

  /**
   * A detached, scrubbed copy of an error and its `cause` chain: plain Errors that keep `name`,
   * `code`, `message` and `stack` (all scrubbed) and nothing else — undici errors can carry
   * sockets, request options and headers, which must not travel into logs or the AppError.
   */
  scrubError(error: unknown, depth = 0): Error {
    if (!(error instanceof Error)) return new Error(this.scrub(describe(error)));
    const copy = new Error(this.scrub(error.message));
    copy.name = this.scrub(error.name);
    copy.stack = error.stack === undefined ? undefined : this.scrub(error.stack);
    const code = (error as { code?: unknown }).code;
    if (typeof code === 'string' || typeof code === 'number') (copy as { code?: unknown }).code = code;
    if (error.cause !== undefined && depth < 8) copy.cause = this.scrubError(error.cause, depth + 1);
    if (error instanceof AggregateError) {
      (copy as { errors?: Error[] }).errors = error.errors.slice(0, 8).map((inner) => this.scrubError(inner, depth + 1));
    }
    return copy;
  }
}

function describe(value: unknown): string {
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function encodedForms(secret: string): string[] {
  const forms = [secret, encodeURIComponent(secret), encodeURIComponent(secret).replace(/%20/g, '+'), JSON.stringify(secret).slice(1, -1)];
  const bytes = Buffer.from(secret, 'utf8');
  for (let shift = 0; shift < 3; shift++) {
    const padded = Buffer.concat([Buffer.alloc(shift), bytes]);
    // Keep only the base64 characters whose 6 bits all come from the secret's bytes: those are
    // the same whatever bytes precede or follow the secret in a larger encoded blob.
    const first = Math.ceil((shift * 8) / 6);
    const end = Math.floor((padded.length * 8) / 6);
    for (const encoding of ['base64', 'base64url'] as const) {
      forms.push(padded.toString(encoding).slice(first, end));
    }
  }
  return forms;
}
