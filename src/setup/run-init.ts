/**
 * `payexport init`: from an API key and an organization id to a config file the jobs load as it
 * is. Each answer is checked at once — the key and organization against the service, with the
 * same requests and one-line errors a job's discovery gives, the time zone, the snapshot, the
 * output root — and a wrong answer is asked again at a terminal, or ends the run with its exit
 * code under `--yes`. Nothing is written until every answer has passed.
 */
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { Env } from '../config/load.js';
import { secretFromEnv } from '../config/secrets.js';
import { checkTimeZone } from '../model/period.js';
import { AppError, usageError } from '../util/errors.js';
import type { SecretScrubber } from '../util/secret-scrubber.js';
import { accessProblemOf, type AccessProblem } from './access-problem.js';
import { configFromAnswers, writeKeyFile, writeValidatedConfig } from './init-config.js';
import { obtainKey } from './init-key.js';
import { describeKeyView, viewOfKey, type KeyView } from './key-view.js';
import { nextCommands, type Scheduler } from './next-commands.js';
import type { Prompter } from './prompter.js';
import { checkSnapshot, describeSnapshot } from './snapshot-answer.js';
import { folderProblem } from './writable-folder.js';

export const DEFAULT_CONFIG_PATH = 'config/payexport.json';

/** Answers given as flags are not asked. */
export interface InitFlags {
  baseUrl?: string | undefined;
  organization?: string | undefined;
  environment?: readonly string[] | undefined;
  /** the variable that holds the key (default PAYEXPORT_API_KEY) */
  keyEnv?: string | undefined;
  /** where a typed key is saved (default: next to the config, `payexport.api-key`) */
  keyFile?: string | undefined;
  tz?: string | undefined;
  /** `embedded`, `env` (DATABASE_URL) or a postgres:// URL without a password */
  snapshot?: string | undefined;
  dataDir?: string | undefined;
  out?: string | undefined;
  scheduler?: Scheduler | undefined;
}

export interface InitOptions {
  configPath: string;
  force: boolean;
  flags: InitFlags;
  /** null: `--yes`, no questions (every answer a flag, the environment or its default) */
  prompter: Prompter | null;
  env: Env;
  cwd: string;
  scrubber: SecretScrubber;
  now: Date;
  print(line: string): void;
  /** a refused answer, shown as the jobs show an error (one line on stderr, with its hint), before the question comes again */
  showError(error: unknown): void;
}

const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
const DEFAULT_BASE_URL = 'https://voltageapi.com/v1';

export async function runInit(options: InitOptions): Promise<void> {
  const { flags, env, prompter, print } = options;
  const target = resolve(options.cwd, options.configPath);
  if (existsSync(target) && !options.force) {
    throw usageError('config_exists', `${options.configPath} exists: pass --force to replace it, or --config to write another file`);
  }
  /** A question at the terminal, or under --yes the flag's value or the default. */
  const answer = async (question: string, given: string | undefined, fallback: string | undefined, what: string): Promise<string> => {
    if (given !== undefined && given !== '') return given;
    if (prompter) return prompter.ask(question, fallback);
    if (fallback !== undefined) return fallback;
    throw usageError('init_missing_answer', `${what} is needed: pass it as a flag, or run init at a terminal without --yes`);
  };
  /** Asks again at a terminal after a refused answer; under --yes the refusal ends the run. */
  const refused = (error: unknown): void => {
    if (!prompter) throw error;
    options.showError(error);
  };
  /** The first answer `accept` takes: a flag's value or the default first, then what is typed. */
  const untilAccepted = async <T>(question: string, given: string | undefined, fallback: string | undefined, what: string, accept: (answer: string) => Promise<T>): Promise<T> => {
    let offered = given;
    for (;;) {
      try {
        return await accept(await answer(question, offered, fallback, what));
      } catch (error) {
        refused(error);
        offered = undefined;
      }
    }
  };

  const baseUrl = (flags.baseUrl ?? env.PAYEXPORT_BASE_URL ?? DEFAULT_BASE_URL).replace(/\/+$/, '');
  print(`payexport init: writes ${options.configPath} for the service at ${baseUrl}`);

  const askOrganization = (given: string | undefined): Promise<string> =>
    untilAccepted('Organization id (UUID)', given, undefined, 'the organization id (--organization)', async (candidate) => {
      if (!UUID.test(candidate)) throw usageError('bad_option', `invalid organization id '${candidate.slice(0, 60)}': expected a UUID`);
      return candidate.toLowerCase();
    });
  let organization = await askOrganization(flags.organization ?? env.PAYEXPORT_ORGANIZATION_ID);
  const keyEnv = flags.keyEnv ?? 'PAYEXPORT_API_KEY';
  const keyFile = flags.keyFile ?? join(dirname(options.configPath), 'payexport.api-key');
  let key = await obtainKey({ env, keyEnv, keyFile, cwd: options.cwd, prompter });
  let environments = flags.environment ?? [];

  // The key and the organization, checked together (one request answers both), asked again until the service accepts them.
  let view: KeyView | null = null;
  while (view === null) {
    try {
      view = await viewOfKey({ baseUrl, credential: key.credential, organizationId: organization, scrubber: options.scrubber });
      for (const environment of environments) {
        await viewOfKey({ baseUrl, credential: key.credential, organizationId: organization, environmentId: environment, scrubber: options.scrubber });
      }
    } catch (error) {
      view = null;
      const problem: AccessProblem = accessProblemOf(error, environments.length > 0);
      // a key from the environment cannot be typed again here, nor can the service be fixed by an answer
      const askAgain = problem === 'organization' || problem === 'environment' || (problem === 'key' && key.source.kind === 'file' && key.source.path === keyFile);
      if (!askAgain) throw error;
      refused(error);
      if (problem === 'key') key = await obtainKey({ env: {}, keyEnv, keyFile, cwd: options.cwd, prompter, retype: true });
      else if (problem === 'organization') organization = await askOrganization(undefined);
      else environments = [await answer("Environment id (the key's own environment)", undefined, undefined, 'the environment')];
    }
  }
  if (environments.length === 0) environments = view.environments;
  if (environments.length === 0) throw usageError('no_wallet_visible', `the key sees no wallet in organization ${organization}: name its environment with --environment`);
  const seen = environments.length === view.environments.length ? view : { wallets: view.wallets.filter((w) => environments.includes(w.environment_id)), environments: [...environments] };
  print(`The key sees (organization ${organization}):`);
  for (const line of describeKeyView(seen)) print(line);

  const tz = await untilAccepted('Time zone of the books (IANA)', flags.tz ?? env.PAYEXPORT_TZ, systemTimeZone(), 'the time zone', async (candidate) => checkTimeZone(candidate));
  const snapshot = await untilAccepted(
    "Snapshot database: 'embedded' (a folder, nothing to install), 'env' (Postgres at DATABASE_URL) or a postgres:// URL without its password",
    flags.snapshot,
    secretFromEnv(env, 'DATABASE_URL') === undefined ? 'embedded' : 'env',
    'the snapshot',
    (candidate) => checkSnapshot(candidate, flags.dataDir ?? 'data', env, options.cwd, options.scrubber),
  );
  print(`  snapshot: ${describeSnapshot(snapshot, env)}`);
  const out = await untilAccepted('Output root (report folders go under it)', flags.out ?? env.PAYEXPORT_OUT, 'reports', 'the output root', async (candidate) => {
    const problem = await folderProblem(resolve(options.cwd, candidate));
    if (problem !== null) throw new AppError('cantCreate', 'output_not_writable', `output root: ${problem}`);
    return candidate;
  });

  if (key.source.kind === 'file' && key.typed) {
    writeKeyFile(resolve(options.cwd, key.source.path), key.credential.value);
    print(`Wrote ${key.source.path} (mode 600, the API key: keep it out of version control)`);
  }
  const config = configFromAnswers({ baseUrl, organization, environments, key: key.source, tz, snapshot, out }, options.now);
  const jobEnv = key.source.kind === 'env' ? env : { ...env, [keyEnv]: undefined };
  writeValidatedConfig(options.configPath, config, jobEnv, options.cwd);
  print(`Wrote ${options.configPath} (${environments.length} environment(s), ${seen.wallets.length} wallet(s) in reach; checked as the jobs load it)`);
  print('');
  print('Next:');
  for (const line of nextCommands({ configPath: options.configPath, cwd: options.cwd, tz, key: key.source, scheduler: flags.scheduler ?? 'cron', now: options.now })) print(line);
  print(`Before tonight's run: npx payexport doctor --config ${options.configPath}`);
}

function systemTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}
