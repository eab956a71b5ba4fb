/**
 * Loads the configuration once, at the edge: defaults < config file < env < flags. The file is
 * `--config`, else PAYEXPORT_CONFIG, else config/payexport.json under the cwd (config-file-choice.ts).
 * The only module that reads environment variables (they are passed in, never read globally).
 * Every problem is an AppError: exit 78 for the file and env, with the offending key's path.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { z } from 'zod';
import { AppError, configError, usageError } from '../util/errors.js';
import { didYouMean } from '../util/did-you-mean.js';
import { configSchema, type Config, type ConfigInput } from './schema.js';
import { chooseConfigFile, type ConfigFileChoice } from './config-file-choice.js';
import { databaseUrlPassword, findSecretKeys, readSecretFile, redactDatabaseUrl, secretFromEnv } from './secrets.js';

import type { Env } from '../util/env.js';
export type { Env };
export type Source = 'default' | 'file' | 'env' | 'flag';

/** A credential for one environment (or `*`: the single-environment default). */
export interface Credential {
  scheme: 'api_key' | 'bearer';
  value: string;
}

export interface Secrets {
  /** by environment id; `*` = PAYEXPORT_API_KEY / PAYEXPORT_BEARER_TOKEN for every environment without its own */
  credentials: ReadonlyMap<string, Credential>;
  databaseUrl: string | undefined;
  /** PAYEXPORT_COINGECKO_API_KEY: the optional CoinGecko key of the price cache (docs/prices.md#coingecko) */
  coingeckoApiKey?: string;
  /** every secret value loaded, for the scrubber */
  values: readonly string[];
  /**
   * with `collectSecretProblems`: why a secret could not be read, by the id its credential would
   * have had (an environment id, `*`, or `databaseUrl`) — `doctor` reports each one with its own
   * fix and still checks everything that does not need it
   */
  problems?: ReadonlyMap<string, AppError>;
}

export interface LoadedConfig {
  config: Config;
  secrets: Secrets;
  /** where each top-level key's value came from (for --print-config) */
  sources: Readonly<Record<string, Source>>;
  configFile: string | undefined;
  /** the file read and how it was chosen (null: none), for the one line every command prints */
  configChoice: ConfigFileChoice | null;
}

export interface LoadInput {
  /** only the flags the user actually gave (an absent flag never overrides) */
  flags: Partial<ConfigInput> & { config?: string | undefined };
  env: Env;
  cwd: string;
  /** a secret that cannot be read is recorded in `secrets.problems` instead of thrown (doctor; commands that need no API key) */
  collectSecretProblems?: boolean;
}

/** Env variables that map onto config keys (docs/contracts.md#common-options). */
const ENV_KEYS: ReadonlyArray<[string, keyof ConfigInput, (v: string) => unknown]> = [
  ['PAYEXPORT_BASE_URL', 'baseUrl', (v) => v],
  ['PAYEXPORT_ORGANIZATION_ID', 'organization', (v) => v],
  ['PAYEXPORT_TZ', 'tz', (v) => v],
  ['PAYEXPORT_OUT', 'out', (v) => v],
  ['PAYEXPORT_LOG_FORMAT', 'logFormat', (v) => v],
  ['PAYEXPORT_LOG_LEVEL', 'logLevel', (v) => v],
  ['PAYEXPORT_SHARD', 'shard', (v) => v],
  // a number only when it is one: 'abc' stays text, so the schema's message is not about NaN
  ['PAYEXPORT_CONCURRENCY', 'concurrency', (v) => (/^\s*-?\d{1,15}\s*$/.test(v) ? Number(v) : v)],
];

export function loadConfig(input: LoadInput): LoadedConfig {
  const { flags, env, cwd } = input;
  const sources: Record<string, Source> = {};
  const merged: Record<string, unknown> = {};

  const configChoice = chooseConfigFile(flags.config, env, cwd);
  const configFile = configChoice?.path;
  if (configFile !== undefined) {
    const fromFile = readConfigFile(resolve(cwd, configFile), configFile);
    for (const [key, value] of Object.entries(fromFile)) {
      merged[key] = value;
      sources[key] = 'file';
    }
  }

  for (const [name, key, convert] of ENV_KEYS) {
    const raw = env[name];
    if (raw !== undefined && raw !== '') {
      merged[key] = convert(raw);
      sources[key] = 'env';
    }
  }
  // A Kubernetes Indexed Job gives each pod JOB_COMPLETION_INDEX; PAYEXPORT_SHARDS says N.
  if (env.JOB_COMPLETION_INDEX !== undefined && env.PAYEXPORT_SHARDS !== undefined && merged.shard === undefined) {
    merged.shard = `${env.JOB_COMPLETION_INDEX}/${env.PAYEXPORT_SHARDS}`;
    sources.shard = 'env';
  }

  for (const [key, value] of Object.entries(flags)) {
    if (key === 'config' || value === undefined) continue;
    merged[key] = value;
    sources[key] = 'flag';
  }

  const parsed = configSchema.safeParse(merged);
  if (!parsed.success) throw fromZodError(parsed.error, sources, configFile, merged);
  const config = parsed.data;
  for (const key of Object.keys(configSchema.shape)) sources[key] ??= 'default';

  const secrets = loadSecrets(config, env, cwd, sources, input.collectSecretProblems === true);
  return { config: Object.freeze(config), secrets, sources: Object.freeze(sources), configFile, configChoice };
}

function readConfigFile(path: string, shown: string): Record<string, unknown> {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    throw configError('config_file_unreadable', `config file '${shown}' cannot be read`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw configError('config_file_invalid', `config file '${shown}' is not valid JSON: ${(error as Error).message}`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw configError('config_file_invalid', `config file '${shown}' must hold a JSON object`);
  }
  const secretKeys = findSecretKeys(value);
  if (secretKeys.length > 0) {
    throw configError(
      'secret_in_config',
      `config file '${shown}' holds a secret at '${secretKeys[0]}': secrets come from env (PAYEXPORT_API_KEY, DATABASE_URL) or a file named by apiKeyFile / apiKeyEnv`,
    );
  }
  // `$schema` for editors and `$comment` for people (JSON Schema's own keywords) are not settings.
  const { $schema: _schema, $comment: _comment, ...rest } = value as Record<string, unknown>;
  return rest;
}

/** The command-line flag of each config key a flag can set (common-options.ts), for usage errors. */
const FLAG_OF: Readonly<Record<string, string>> = {
  baseUrl: '--base-url',
  organization: '--organization',
  environments: '--environment',
  wallets: '--wallet',
  shard: '--shard',
  tz: '--tz',
  out: '--out',
  formats: '--format',
  databaseUrl: '--database-url',
  db: '--db',
  dbSchema: '--schema',
  dataDir: '--data-dir',
  concurrency: '--concurrency',
  pageSize: '--page-size',
  lookbackDays: '--lookback-days',
  logFormat: '--log-format',
};

function fromZodError(error: z.ZodError, sources: Record<string, Source>, configFile: string | undefined, merged: Record<string, unknown>): AppError {
  const issue = error.issues[0];
  if (!issue) return configError('config_invalid', 'invalid configuration');
  const path = issue.path.map((p) => (typeof p === 'number' ? `[${p}]` : String(p))).join('.').replace(/\.\[/g, '[');
  const rootKeys = issue.code === 'unrecognized_keys' && issue.path.length === 0 ? (issue as unknown as { keys: string[] }).keys : [];
  const top = String(issue.path[0] ?? rootKeys[0] ?? '');
  const origin = describeSource(sources[top], configFile);
  const flag = FLAG_OF[top];
  if (sources[top] === 'flag' && flag !== undefined) {
    // A bad flag value is a usage error (64), not a configuration one: name the flag as typed.
    const shown = top === 'databaseUrl' ? '' : shownValue(issue.path.length > 1 && typeof issue.path[1] === 'number' ? (merged[top] as unknown[])[issue.path[1]] : merged[top]);
    return usageError('bad_option', `invalid ${flag}${shown ? ` ${shown}` : ''}: ${issue.message}`, { option: flag });
  }
  if (issue.code === 'unrecognized_keys') {
    const keys = (issue as unknown as { keys: string[] }).keys;
    const key = keys[0] ?? '';
    const at = path ? `${path}.${key}` : key;
    const known = knownKeysAt(issue.path);
    const hint = didYouMean(key, known);
    return configError('config_unknown_key', `unknown configuration key '${at}'${origin}${hint ? ` (did you mean '${hint}'?)` : ''}`, { key: at });
  }
  return configError('config_invalid', `invalid configuration '${path || top}'${origin}: ${issue.message}`, { key: path });
}

function shownValue(value: unknown): string {
  if (typeof value === 'object' && value !== null && 'id' in value) return shownValue((value as { id: unknown }).id);
  const text = Array.isArray(value) ? value.join(',') : String(value);
  return `'${text.length > 60 ? `${text.slice(0, 60)}…` : text}'`;
}

function describeSource(source: Source | undefined, configFile: string | undefined): string {
  if (source === 'file' && configFile) return ` in config file '${configFile}'`;
  if (source === 'env') return ' from the environment';
  if (source === 'flag') return ' from the command line';
  return '';
}

function knownKeysAt(path: readonly PropertyKey[]): string[] {
  let shape: Record<string, unknown> = configSchema.shape;
  for (const part of path) {
    if (typeof part === 'number') continue;
    const next = unwrap(shape[String(part)]);
    if (!next) return [];
    shape = next;
  }
  return Object.keys(shape);
}

function unwrap(schema: unknown): Record<string, unknown> | undefined {
  let s = schema as { shape?: Record<string, unknown>; unwrap?: () => unknown; element?: unknown; def?: { innerType?: unknown } } | undefined;
  for (let i = 0; i < 5 && s; i++) {
    if (s.shape) return s.shape;
    if (s.element) s = s.element as typeof s;
    else if (s.def?.innerType) s = s.def.innerType as typeof s;
    else return undefined;
  }
  return undefined;
}


function loadSecrets(config: Config, env: Env, cwd: string, sources: Readonly<Record<string, Source>>, collect: boolean): Secrets {
  const credentials = new Map<string, Credential>();
  const values: string[] = [];
  const problems = new Map<string, AppError>();
  const add = (id: string, scheme: Credential['scheme'], read: () => string | undefined): void => {
    let value: string | undefined;
    try {
      value = read();
    } catch (error) {
      if (!collect || !(error instanceof AppError)) throw error;
      problems.set(id, error);
      return;
    }
    if (value === undefined) return;
    credentials.set(id, { scheme, value });
    values.push(value);
  };

  for (const environment of config.environments) {
    if (environment.apiKeyEnv) add(environment.id, 'api_key', () => requiredEnv(env, environment.apiKeyEnv as string, `environments[${environment.id}].apiKeyEnv`));
    else if (environment.apiKeyFile) add(environment.id, 'api_key', () => readSecretFile(resolve(cwd, environment.apiKeyFile as string), 'API key'));
    else if (environment.bearerTokenEnv) add(environment.id, 'bearer', () => requiredEnv(env, environment.bearerTokenEnv as string, `environments[${environment.id}].bearerTokenEnv`));
    else if (environment.bearerTokenFile) add(environment.id, 'bearer', () => readSecretFile(resolve(cwd, environment.bearerTokenFile as string), 'bearer token'));
  }
  const apiKey = secretFromEnv(env, 'PAYEXPORT_API_KEY');
  const bearer = secretFromEnv(env, 'PAYEXPORT_BEARER_TOKEN');
  if (apiKey !== undefined) add('*', 'api_key', () => apiKey);
  else if (bearer !== undefined) add('*', 'bearer', () => bearer);
  else if (env.PAYEXPORT_API_KEY_FILE) add('*', 'api_key', () => readSecretFile(resolve(cwd, env.PAYEXPORT_API_KEY_FILE as string), 'API key'));

  let databaseUrl = env.DATABASE_URL && env.DATABASE_URL.trim() !== '' ? env.DATABASE_URL.trim() : undefined;
  // defaults < file < env < flags: a file's URL yields to DATABASE_URL, a flag's wins over it.
  if (config.databaseUrl !== undefined && (databaseUrl === undefined || sources.databaseUrl === 'flag')) {
    if (databaseUrlPassword(config.databaseUrl) !== undefined && !env.DATABASE_URL) {
      throw configError('secret_in_config', `databaseUrl '${redactDatabaseUrl(config.databaseUrl)}' holds a password: put it in DATABASE_URL or databaseUrlFile`);
    }
    databaseUrl = config.databaseUrl;
  }
  if (config.databaseUrlFile !== undefined) {
    try {
      databaseUrl = readSecretFile(resolve(cwd, config.databaseUrlFile), 'database URL');
    } catch (error) {
      if (!collect || !(error instanceof AppError)) throw error;
      problems.set('databaseUrl', error);
    }
  }
  if (databaseUrl !== undefined) {
    const password = databaseUrlPassword(databaseUrl);
    if (password !== undefined) values.push(password);
  }
  const coingeckoApiKey = secretFromEnv(env, 'PAYEXPORT_COINGECKO_API_KEY');
  if (coingeckoApiKey !== undefined) values.push(coingeckoApiKey);
  return { credentials, databaseUrl, values, ...(coingeckoApiKey !== undefined ? { coingeckoApiKey } : {}), ...(collect ? { problems } : {}) };
}

function requiredEnv(env: Env, name: string, where: string): string {
  const value = secretFromEnv(env, name);
  if (value === undefined) throw new AppError('noPerm', 'missing_credentials', `no credentials: ${where} names ${name}, which is not set`, { details: { variable: name } });
  return value;
}

/** The effective configuration for `--print-config`: values with their source, secrets redacted. */
export function describeConfig(loaded: LoadedConfig): Record<string, { value: unknown; source: Source }> {
  const out: Record<string, { value: unknown; source: Source }> = {};
  const choice = loaded.configChoice;
  // the file itself: named by a flag, by PAYEXPORT_CONFIG, or found where init writes it (a default)
  out.configFile = { value: choice?.path ?? null, source: choice === null ? 'default' : choice.origin === 'found' ? 'default' : choice.origin };
  for (const [key, value] of Object.entries(loaded.config)) {
    const shown = key === 'databaseUrl' && typeof value === 'string' ? redactDatabaseUrl(value) : value;
    out[key] = { value: shown, source: loaded.sources[key] ?? 'default' };
  }
  out.credentials = {
    value: [...loaded.secrets.credentials.entries()].map(([id, c]) => ({ environment: id, scheme: c.scheme, value: '***' })),
    source: 'env',
  };
  if (loaded.secrets.databaseUrl) out.databaseUrl = { value: redactDatabaseUrl(loaded.secrets.databaseUrl), source: loaded.sources.databaseUrl === 'default' ? 'env' : (loaded.sources.databaseUrl ?? 'env') };
  return out;
}
