/**
 * The run's logger: pino JSON lines carrying `run_id`, or short human lines on a TTY (a tiny
 * formatter here, no pino-pretty). Secrets are removed twice (docs/reliability.md#secrets):
 *   - by KEY: pino `redact` paths for headers, keys, passwords and URLs that hold credentials;
 *   - by VALUE: the run's SecretScrubber runs over every serialized line (pino `hooks.streamWrite`),
 *     so a key that slipped into a message, an error or a `cause` chain is masked at any level.
 * Callers log method and path, never headers or keys (docs/style.md#3-errors).
 */
import { pino, type DestinationStream } from 'pino';
import { REDACTED, SecretScrubber } from './secret-scrubber.js';

export type LogLevel = 'trace' | 'debug' | 'info' | 'warn' | 'error' | 'fatal' | 'silent';
export type LogFormat = 'json' | 'pretty';

export interface LogFn {
  (message: string): void;
  (fields: Record<string, unknown>, message?: string): void;
}

/** What the rest of the code depends on; tests inject createMemoryLogger(). */
export interface Logger {
  trace: LogFn;
  debug: LogFn;
  info: LogFn;
  warn: LogFn;
  error: LogFn;
  child(bindings: Record<string, unknown>): Logger;
}

/** Keys that hold secrets wherever they appear (one level of nesting: pino wildcards are single-level). */
const SECRET_KEYS = [
  'apiKey',
  'api_key',
  'bearerToken',
  'bearer_token',
  'token',
  'secret',
  'sharedSecret',
  'shared_secret',
  'webhookSecret',
  'password',
  'databaseUrl',
  'database_url',
  'authorization',
  '"x-api-key"',
];

export const REDACT_PATHS: readonly string[] = [
  'headers.authorization',
  'headers["x-api-key"]',
  'headers.cookie',
  '*.headers.authorization',
  '*.headers["x-api-key"]',
  '*.headers.cookie',
  ...SECRET_KEYS.flatMap((key) => [key.startsWith('"') ? `[${key}]` : key, key.startsWith('"') ? `*[${key}]` : `*.${key}`]),
];

export interface LoggerOptions {
  runId: string;
  scrubber: SecretScrubber;
  level?: LogLevel;
  format?: LogFormat;
  /** default: stderr (stdout is kept for data such as the --dry-run plan) */
  destination?: { write(line: string): unknown };
}

/** `pretty` on a TTY, `json` otherwise (docs/contracts.md#common-options, `--log-format`). */
export function defaultLogFormat(stream: { isTTY?: boolean } = process.stderr): LogFormat {
  return stream.isTTY === true ? 'pretty' : 'json';
}

export function createLogger(options: LoggerOptions): Logger {
  const format = options.format ?? 'json';
  const sink = options.destination ?? pino.destination({ dest: 2, sync: true });
  const stream: DestinationStream = format === 'pretty' ? { write: (line: string) => void sink.write(formatPretty(line)) } : { write: (line: string) => void sink.write(line) };
  return pino(
    {
      level: options.level ?? 'info',
      base: { run_id: options.runId },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      redact: { paths: [...REDACT_PATHS], censor: REDACTED },
      hooks: { streamWrite: (line) => options.scrubber.scrub(line) },
    },
    stream,
  ) as unknown as Logger;
}

export interface MemoryLogger {
  log: Logger;
  /** every line as written (after redaction and scrubbing) */
  readonly lines: string[];
  /** the lines parsed */
  records(): Array<Record<string, unknown>>;
}

/** The real pipeline (redaction + scrubbing) writing into an array: for tests. */
export function createMemoryLogger(options: { scrubber?: SecretScrubber; level?: LogLevel; runId?: string } = {}): MemoryLogger {
  const lines: string[] = [];
  const log = createLogger({
    runId: options.runId ?? 'test-run',
    scrubber: options.scrubber ?? new SecretScrubber(),
    level: options.level ?? 'trace',
    format: 'json',
    destination: { write: (line: string) => lines.push(line) },
  });
  return { log, lines, records: () => lines.map((line) => JSON.parse(line) as Record<string, unknown>) };
}

/** A logger that drops everything (for library callers that pass none). */
export function silentLogger(): Logger {
  return createLogger({ runId: '-', scrubber: new SecretScrubber(), level: 'silent', destination: { write: () => undefined } });
}

const PRETTY_SKIP = new Set(['level', 'time', 'msg', 'run_id']);

/** One JSON line → `12:00:01.234 WARN  message key=value …` (the line is already scrubbed). */
export function formatPretty(line: string): string {
  let record: Record<string, unknown>;
  try {
    record = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return line;
  }
  const time = typeof record.time === 'string' ? record.time.slice(11, 23) : '';
  const level = String(record.level ?? '').toUpperCase().padEnd(5);
  const parts = [time, level, typeof record.msg === 'string' ? record.msg : ''];
  for (const [key, value] of Object.entries(record)) {
    if (PRETTY_SKIP.has(key)) continue;
    if (key === 'err' && typeof value === 'object' && value !== null) {
      const err = value as { type?: unknown; message?: unknown };
      parts.push(`err=${String(err.type ?? 'Error')}: ${String(err.message ?? '')}`);
      continue;
    }
    parts.push(`${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`);
  }
  return parts.filter((part) => part !== '').join(' ') + '\n';
}
