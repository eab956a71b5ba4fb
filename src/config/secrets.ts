/**
 * Secrets: API keys, bearer tokens, a database password. They come ONLY from environment
 * variables or files (never a flag: argv shows in `ps` and shell history; never the config file:
 * it gets committed). Every loaded value is registered with the scrubber so no log line, error or
 * file can carry it.
 */
import { readFileSync, statSync } from 'node:fs';
import { configError } from '../util/errors.js';

/** Keys that look like they hold a secret; refused anywhere in a config file. */
const SECRET_KEY = /(^|[_-])?(api[_-]?key|apikey|token|secret|password|passwd|credential)s?$/i;
const ALLOWED_SECRET_REFERENCES = new Set(['apiKeyEnv', 'apiKeyFile', 'bearerTokenEnv', 'bearerTokenFile', 'databaseUrlFile']);

/** Paths of keys in a parsed config file that would hold a secret, e.g. `environments[0].apiKey`. */
export function findSecretKeys(value: unknown, path = ''): string[] {
  if (Array.isArray(value)) return value.flatMap((item, i) => findSecretKeys(item, `${path}[${i}]`));
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, child]) => {
    const here = path ? `${path}.${key}` : key;
    const own = SECRET_KEY.test(key) && !ALLOWED_SECRET_REFERENCES.has(key) ? [here] : [];
    return [...own, ...findSecretKeys(child, here)];
  });
}

/** Reads a secret file: refuses one that group or others can read (like OpenSSH), trims one trailing newline. */
export function readSecretFile(path: string, what: string): string {
  let mode: number;
  try {
    mode = statSync(path).mode;
  } catch {
    throw configError('secret_file_missing', `${what} file '${path}' cannot be read`, { path });
  }
  if ((mode & 0o077) !== 0) {
    throw configError('secret_file_permissions', `${what} file '${path}' is readable by others (mode ${(mode & 0o777).toString(8)}); run chmod 600 '${path}'`, { path });
  }
  const text = readFileSync(path, 'utf8').replace(/\r?\n$/, '');
  if (text.trim() === '') throw configError('secret_empty', `${what} file '${path}' is empty`, { path });
  return text;
}

/** A secret from env: empty → missing; surrounding whitespace (a pasted newline) is trimmed. */
export function secretFromEnv(env: Readonly<Record<string, string | undefined>>, name: string): string | undefined {
  const raw = env[name];
  if (raw === undefined) return undefined;
  const trimmed = raw.trim();
  return trimmed === '' ? undefined : trimmed;
}

/**
 * A database URL safe to print (messages, --print-config, the snapshot's target): the password
 * (and any `password=`-like query parameter) replaced by `***`, so secrets never reach logs or
 * errors. Unparseable input is not echoed at all, because it may be all secret.
 */
export function redactDatabaseUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return '<unparseable database URL>';
  }
  if (parsed.password !== '') parsed.password = '***';
  for (const key of [...parsed.searchParams.keys()]) {
    if (/pass|secret|sslkey/i.test(key)) parsed.searchParams.set(key, '***');
  }
  return parsed.toString();
}

/** The password part of a database URL, if any (so it can be registered for scrubbing). */
export function databaseUrlPassword(url: string): string | undefined {
  try {
    const password = new URL(url).password;
    return password ? decodeURIComponent(password) : undefined;
  } catch {
    return undefined;
  }
}
