/**
 * Options every job command takes (docs/contracts.md#common-options). No yargs defaults on
 * anything the config also sets: an absent flag must never override the file or the environment.
 */
import type { Argv, Options } from 'yargs';
import type { ConfigInput } from '../config/schema.js';
import { SECRETS_EPILOG } from './help.js';
import { usageError } from '../util/errors.js';

export interface CommonArgs {
  config?: string;
  'base-url'?: string;
  organization?: string;
  environment?: string[];
  wallet?: string[];
  tz?: string;
  out?: string;
  format?: string;
  'database-url'?: string;
  db?: boolean;
  schema?: string;
  'data-dir'?: string;
  // whole numbers, read as typed: yargs' own number type turns 'abc' into NaN before we can echo it
  concurrency?: string | string[];
  'page-size'?: string | string[];
  'lookback-days'?: string | string[];
  shard?: string;
  'dry-run'?: boolean;
  'log-format'?: 'pretty' | 'json';
  quiet?: boolean;
  verbose?: boolean;
  'print-config'?: boolean;
}

/** Every option the shared flags layer (flagsFromArgs) knows. */
export const COMMON_OPTIONS = [
  'config', 'base-url', 'organization', 'environment', 'wallet', 'shard', 'tz', 'out', 'format', 'database-url', 'db', 'schema', 'data-dir',
  'concurrency', 'page-size', 'lookback-days', 'dry-run', 'log-format', 'quiet', 'verbose', 'print-config',
] as const;
export type CommonOption = (typeof COMMON_OPTIONS)[number];

/**
 * Which shared options a command shows and accepts — only those its code reads, so `--help` never
 * offers a flag that would be silently ignored (test/cli/help-options.test.ts holds every command to it):
 *   `pull`     export, nightly, month-end: the API, the snapshot, the reports;
 *   `report`   the snapshot only — no API options;
 *   `db`       the database options only;
 *   `listen`   the listener: the API (its safety-net sweeps) and the snapshot, no report or period options;
 *   `api`      one API call with the organization's scope (webhooks);
 *   `config`   reads one section of the config file (notify);
 *   `check`    checks what a job would run with (doctor): every setting of `pull`, no run controls;
 *   `deliver`  sends a published folder again (deliver): the config's destinations, and where its
 *              outcomes are recorded (the snapshot, or the output root's state with --no-db).
 */
export type OptionSet = 'pull' | 'report' | 'db' | 'listen' | 'api' | 'config' | 'check' | 'deliver' | 'pack';

const LOGGING: readonly CommonOption[] = ['log-format', 'quiet', 'verbose'];
export const OPTION_SETS: Readonly<Record<OptionSet, readonly CommonOption[]>> = {
  pull: COMMON_OPTIONS,
  report: COMMON_OPTIONS.filter((o) => !['base-url', 'shard', 'concurrency', 'page-size', 'lookback-days', 'db'].includes(o)),
  db: ['config', 'database-url', 'schema', 'data-dir', ...LOGGING, 'print-config'],
  listen: ['config', 'base-url', 'organization', 'environment', 'wallet', 'database-url', 'schema', 'data-dir', 'concurrency', 'page-size', ...LOGGING, 'print-config'],
  api: ['config', 'base-url', 'organization', 'environment', 'verbose'],
  config: ['config', 'verbose'],
  check: COMMON_OPTIONS.filter((o) => !['dry-run', 'print-config', 'log-format', 'quiet'].includes(o)),
  deliver: ['config', 'out', 'database-url', 'db', 'schema', 'data-dir', ...LOGGING],
  pack: ['config', 'out', 'organization', 'verbose'],
};

/**
 * Options a command accepts without showing them: it reads them only to refuse them with a
 * helpful line (`report --no-db`: a report needs the snapshot; `listen --dry-run`: try --print-config).
 */
export const REFUSED_OPTIONS: Readonly<Partial<Record<OptionSet, readonly CommonOption[]>>> = { report: ['db'], db: ['db'], listen: ['dry-run'] };

export function withCommonOptions<T>(y: Argv<T>, set: OptionSet = 'pull', epilog: string = SECRETS_EPILOG): Argv<T & CommonArgs> {
  const shown = new Set<CommonOption>(OPTION_SETS[set]);
  const refused = new Set<CommonOption>(REFUSED_OPTIONS[set] ?? []);
  const api = shown.has('base-url');
  let out = y;
  const option = (name: CommonOption, spec: Options): void => {
    if (shown.has(name)) out = out.option(name, spec);
    else if (refused.has(name)) out = out.option(name, { ...spec, hidden: true });
  };
  option('config', { type: 'string', describe: 'JSON config file (default: env PAYEXPORT_CONFIG, else config/payexport.json in the current folder)', group: 'Configuration:' });
  option('base-url', { type: 'string', describe: 'API base including /v1 (env PAYEXPORT_BASE_URL)', group: 'Configuration:' });
  option('organization', { type: 'string', describe: 'organization UUID (env PAYEXPORT_ORGANIZATION_ID)', group: 'Configuration:' });
  option('environment', { type: 'string', array: true, describe: 'environment UUID, repeatable (default: every environment that holds a wallet)', group: 'Scope:' });
  option('wallet', { type: 'string', array: true, describe: 'wallet UUID, repeatable (default: every wallet, inactive included)', group: 'Scope:' });
  option('shard', { type: 'string', describe: 'K/N: pull only the wallets of shard K (JOB_COMPLETION_INDEX + PAYEXPORT_SHARDS also work)', group: 'Scope:' });
  option('tz', { type: 'string', describe: 'reporting time zone, IANA (default UTC)', group: 'Output:' });
  option('out', { type: 'string', describe: 'output root (default reports/)', group: 'Output:' });
  option('format', { type: 'string', describe: 'csv,xlsx (default both)', group: 'Output:' });
  option('database-url', { type: 'string', describe: 'Postgres URL (env DATABASE_URL); absent → embedded database under data/', group: 'Database:' });
  option('db', { type: 'boolean', describe: 'keep a snapshot database (--no-db: none; checkpoints in a state file)', group: 'Database:' });
  option('schema', { type: 'string', describe: 'Postgres schema (default payexport)', group: 'Database:' });
  option('data-dir', { type: 'string', describe: 'embedded database folder (default data/)', group: 'Database:' });
  option('concurrency', { type: 'string', describe: 'requests in flight for the whole run, 1–64 (default 8)', group: 'Run:' });
  option('page-size', { type: 'string', describe: 'largest page to ask the API for, 1–1000 (default 1000; the service may grant less, and the run follows it)', group: 'Run:' });
  option('lookback-days', { type: 'string', describe: 'nightly re-sweep of recent days, 0–366 (default 7)', group: 'Run:' });
  option('dry-run', { type: 'boolean', describe: api ? 'print the plan (streams, window, request estimate) and exit 0' : 'print what the snapshot holds for the window and exit 0', group: 'Run:' });
  option('log-format', { choices: ['pretty', 'json'] as const, describe: 'default: pretty on a TTY, json otherwise', group: 'Run:' });
  option('quiet', { type: 'boolean', describe: 'only warnings and errors', group: 'Run:' });
  option('verbose', { type: 'boolean', describe: 'debug logs and stack traces', group: 'Run:' });
  option('print-config', { type: 'boolean', describe: 'print the effective configuration (secrets redacted) and exit', group: 'Run:' });
  return out.epilog(epilog) as Argv<T & CommonArgs>;
}

/** Only the flags the user gave, in config terms (for loadConfig's flags layer). */
export function flagsFromArgs(args: CommonArgs): Partial<ConfigInput> & { config?: string } {
  const flags: Partial<ConfigInput> & { config?: string } = {};
  if (args.config !== undefined) flags.config = one('--config', args.config);
  if (args['base-url'] !== undefined) flags.baseUrl = one('--base-url', args['base-url']);
  if (args.organization !== undefined) flags.organization = one('--organization', args.organization);
  if (args.environment !== undefined) flags.environments = args.environment.map((id) => ({ id }));
  if (args.wallet !== undefined) flags.wallets = args.wallet;
  if (args.shard !== undefined) flags.shard = one('--shard', args.shard);
  if (args.tz !== undefined) flags.tz = one('--tz', args.tz);
  if (args.out !== undefined) flags.out = one('--out', args.out);
  // `--format csv --format xlsx` means both, like `--format csv,xlsx`
  if (args.format !== undefined) flags.formats = [args.format].flat().flatMap((f) => f.split(',')).map((f) => f.trim()) as ('csv' | 'xlsx')[];
  if (args['database-url'] !== undefined) flags.databaseUrl = one('--database-url', args['database-url']);
  if (args.db !== undefined) flags.db = args.db;
  if (args.schema !== undefined) flags.dbSchema = one('--schema', args.schema);
  if (args['data-dir'] !== undefined) flags.dataDir = one('--data-dir', args['data-dir']);
  if (args.concurrency !== undefined) flags.concurrency = wholeNumber('--concurrency', args.concurrency);
  if (args['page-size'] !== undefined) flags.pageSize = wholeNumber('--page-size', args['page-size']);
  if (args['lookback-days'] !== undefined) flags.lookbackDays = wholeNumber('--lookback-days', args['lookback-days']);
  if (args['log-format'] !== undefined) flags.logFormat = one('--log-format', args['log-format']) as 'pretty' | 'json';
  if (args.verbose === true) flags.logLevel = 'debug';
  else if (args.quiet === true) flags.logLevel = 'warn';
  return flags;
}

/**
 * A whole-number flag as the user typed it: `invalid --concurrency 'abc'`, never 'NaN'. The range
 * (1–64 and so on) is the config schema's to check, so its message names the limits.
 */
function wholeNumber(flag: string, value: string | string[]): number {
  const typed = Array.isArray(value) ? value.join(' ') : value;
  const shown = typed.length > 60 ? `${typed.slice(0, 60)}…` : typed;
  if (Array.isArray(value)) throw usageError('bad_option', `invalid ${flag} '${shown}' (given more than once)`, { option: flag });
  if (!/^\s*-?\d{1,15}\s*$/.test(value)) throw usageError('bad_option', `invalid ${flag} '${shown}' (expected a whole number)`, { option: flag });
  return Number(value);
}

/**
 * A single-valued flag. yargs turns a repeated one into an array, which would reach the config as
 * a list (or a path function as one, exit 1); the user is told instead. The value is not echoed:
 * for --database-url it may hold a password.
 */
function one(flag: string, value: unknown): string {
  if (Array.isArray(value)) throw usageError('bad_option', `${flag} is given ${value.length} times; give it once`, { option: flag });
  return String(value);
}
