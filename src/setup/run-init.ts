/**
 * `payexport init`: from an API key and an organization id to a config file the jobs load as it
 * is. Each answer is checked at once — the service, the key and the organization against the
 * service with the same requests and errors a job's discovery gives (init-access.ts), the time
 * zone, the snapshot, the output root — and a wrong answer is asked again at a terminal, or ends
 * the run with its exit code under `--yes`. Then the books (init-books.ts). Nothing is written
 * until every answer has passed; Ctrl-C or the end of the input before that writes nothing.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Env } from '../config/load.js';
import { secretFromEnv } from '../config/secrets.js';
import { checkTimeZone } from '../model/period.js';
import { AppError, usageError } from '../util/errors.js';
import type { SecretScrubber } from '../util/secret-scrubber.js';
import { defaultDataDir, defaultOutRoot } from './account-folders.js';
import { checkEnvironmentName, describeEnvironments, proposeEnvironments, walletNamesLine, type NamedEnvironment } from './environment-names.js';
import { checkAccess } from './init-access.js';
import { planBooks, removeOpeningLots, writeOpeningLots } from './init-books.js';
import { configFromAnswers, writeValidatedConfig, type KeySource } from './init-config.js';
import { Questions } from './init-questions.js';
import { checkSigningKeyPlace, ensureSigningKey } from './init-signing-key.js';
import { defaultKeyFile, saveKeyFile } from './key-location.js';
import { configFlag, nextCommands, type Scheduler } from './next-commands.js';
import { ownCommandPath } from './own-command.js';
import type { Prompter } from './prompter.js';
import { checkSnapshot, describeSnapshot } from './snapshot-answer.js';
import { folderFault } from './writable-folder.js';

/** Answers given as flags are not asked. */
export interface InitFlags {
  /** production, staging, or a base URL */
  baseUrl?: string | undefined;
  organization?: string | undefined;
  environment?: readonly string[] | undefined;
  /** the variable that holds the key (default PAYEXPORT_API_KEY) */
  keyEnv?: string | undefined;
  /** where a typed key is saved (default: the user's config folder, key-location.ts) */
  keyFile?: string | undefined;
  tz?: string | undefined;
  /** `embedded`, `env` (DATABASE_URL) or a postgres:// URL without a password */
  snapshot?: string | undefined;
  dataDir?: string | undefined;
  out?: string | undefined;
  /** the books step (default yes) and its currency */
  books?: boolean | undefined;
  booksCurrency?: string | undefined;
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
  /** a refused answer, shown as the jobs show an error (one line on stderr), before the question comes again */
  showError(error: unknown): void;
}

export async function runInit(options: InitOptions): Promise<void> {
  const { flags, env, prompter, print, cwd } = options;
  if (existsSync(resolve(cwd, options.configPath)) && !options.force) {
    throw usageError('config_exists', `${options.configPath} exists: pass --force to replace it, or --config to write another file`);
  }
  const signingKey = checkSigningKeyPlace(env, cwd);
  const questions = new Questions(prompter, options.showError, print);
  print(`payexport init: writes ${options.configPath}`);

  const access = await checkAccess({
    questions,
    prompter,
    given: { service: [{ value: flags.baseUrl, name: '--base-url' }, { value: env.PAYEXPORT_BASE_URL, name: 'PAYEXPORT_BASE_URL' }], organization: [{ value: flags.organization, name: '--organization' }, { value: env.PAYEXPORT_ORGANIZATION_ID, name: 'PAYEXPORT_ORGANIZATION_ID' }], environments: flags.environment },
    keyEnv: flags.keyEnv ?? 'PAYEXPORT_API_KEY',
    keyFileFor: (organization) => flags.keyFile ?? defaultKeyFile(env, organization),
    replaceSavedKey: options.force,
    env,
    cwd,
    scrubber: options.scrubber,
  });
  const { view, organization } = access;
  // --force replaces the config; the saved key only where it can be asked again: said, never silent
  if (options.force && access.key.saved === true && access.key.source.kind === 'file') print(`  API key: kept the one saved in ${access.key.source.path} (--yes asks nothing; to replace it, run payexport init --force at a terminal, or write the new key into that file)`);
  const ids = access.environments.length > 0 ? access.environments : view.environments;
  if (ids.length === 0) throw usageError('no_wallet_visible', `the key sees no wallet in organization ${organization}: name its environment with --environment`);
  const wallets = view.wallets.filter((w) => ids.includes(w.environment_id));
  const environments: NamedEnvironment[] = proposeEnvironments(ids, wallets, access.service.kind);
  print(`The key sees (organization ${organization}):`);
  for (const line of describeEnvironments(environments)) print(line);
  for (const environment of questions.interactive ? environments : []) {
    environment.name = await questions.until({ text: `Name for environment ${environment.id} (${environment.kind ?? 'kind unknown'}, ${walletNamesLine(environment)})`, what: 'name', defaultAnswer: environment.name }, (a) => checkEnvironmentName(a.value));
  }

  const tz = await questions.until({ text: 'Time zone of the books (IANA, such as America/New_York)', what: 'time zone', defaultAnswer: systemTimeZone(), given: [{ value: flags.tz, name: '--tz' }, { value: env.PAYEXPORT_TZ, name: 'PAYEXPORT_TZ' }] }, (a) => {
    try {
      return checkTimeZone(a.value);
    } catch {
      throw usageError('bad_time_zone', `${a.said} '${a.value.slice(0, 60)}' is not a time zone of the IANA database (such as UTC, America/New_York, Europe/Berlin)`);
    }
  });
  const snapshot = await questions.until(
    { text: "Snapshot database: 'embedded' (a folder, nothing to install), 'env' (Postgres at DATABASE_URL) or a postgres:// URL without its password", what: 'snapshot', defaultAnswer: secretFromEnv(env, 'DATABASE_URL') === undefined ? 'embedded' : 'env', given: [{ value: flags.snapshot, name: '--snapshot' }] },
    (a) => checkSnapshot(a.value, flags.dataDir ?? defaultDataDir(organization), env, cwd, options.scrubber, a.said),
  );
  print(`  snapshot: ${describeSnapshot(snapshot, env)}`);
  const out = await questions.until({ text: "Output root (this account's report folders go under it)", what: 'output root', defaultAnswer: defaultOutRoot(organization), given: [{ value: flags.out, name: '--out' }, { value: env.PAYEXPORT_OUT, name: 'PAYEXPORT_OUT' }] }, async (a) => {
    const fault = await folderFault(resolve(cwd, a.value), { keepCreated: false });
    if (fault !== null) throw new AppError('cantCreate', 'output_not_writable', `${a.said} '${a.value}': ${fault.message}`);
    return a.value;
  });
  const books = await planBooks({ questions, given: { books: flags.books, booksCurrency: flags.booksCurrency }, configPath: options.configPath, cwd, wallets, access: { baseUrl: access.service.baseUrl, credential: access.key.credential, organizationId: organization, scrubber: options.scrubber } });

  // every answer passed: from here on, files are written (a Ctrl-C pressed while the last check ran ends it here)
  prompter?.throwIfEnded();
  prompter?.close();
  let key: KeySource = access.key.source;
  if (access.key.typed) {
    const path = flags.keyFile ?? defaultKeyFile(env, organization);
    const saved = saveKeyFile(path, access.key.credential.value, env, cwd);
    key = { kind: 'file', path };
    print(`Wrote ${path} (mode 600: the API key, outside the config${saved.gitignore === null ? '' : `; ${saved.gitignore} now keeps it out of git`})`);
  }
  const bookLines = books === null ? [] : writeOpeningLots(books);
  const config = configFromAnswers({ service: access.service, organization, environments, key, tz, snapshot, out, books: books?.sections ?? null }, options.now);
  const jobEnv = key.kind === 'env' ? env : { ...env, [flags.keyEnv ?? 'PAYEXPORT_API_KEY']: undefined };
  try {
    writeValidatedConfig(options.configPath, config, jobEnv, cwd);
  } catch (error) {
    if (books !== null) removeOpeningLots(books);
    throw error;
  }
  for (const line of bookLines) print(line);
  if (books === null) print('No books: the month-end writes no Journal, Lots or Crypto assets sheet. To add them, run init again with --force and answer yes (docs/journal.md, docs/lots.md).');
  print(`Wrote ${options.configPath} (${environments.length} environment(s), ${wallets.length} wallet(s) in reach${books === null ? '' : `, books in ${books.booksCurrency}`}; checked as the jobs load it)`);
  for (const line of ensureSigningKey(signingKey)) print(line);
  print('');
  print('Next:');
  for (const line of nextCommands({ configPath: options.configPath, cwd, command: ownCommandPath(), tz, key, scheduler: flags.scheduler ?? 'cron', now: options.now, books: books === null ? null : { booksCurrency: books.booksCurrency, firstMovement: books.firstMovement } })) print(line);
  print(`Before tonight's run: payexport doctor${configFlag(options.configPath)}`);
}

function systemTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}
