/**
 * `payexport init`: the questions (or flags, for scripts) that make config/payexport.json, each
 * answer checked at once against the service; the flow is src/setup/run-init.ts.
 */
import { exitCodesEpilog } from '../command-exit-codes.js';
import type { Argv, CommandModule } from 'yargs';
import { configFileToWrite, DEFAULT_CONFIG_PATH } from '../../config/config-file-choice.js';
import { SCHEDULERS, type Scheduler } from '../../setup/next-commands.js';
import { terminalPrompter } from '../../setup/prompter.js';
import { AppError } from '../../util/errors.js';
import type { CliContext } from '../cli-context.js';
import { withHint } from '../error-hints.js';
import { examplesEpilog } from '../help.js';

interface InitArgs {
  config?: string;
  force?: boolean;
  yes?: boolean;
  'base-url'?: string;
  organization?: string;
  environment?: string[];
  'key-env'?: string;
  'key-file'?: string;
  tz?: string;
  snapshot?: string;
  'data-dir'?: string;
  out?: string;
  books?: boolean;
  'books-currency'?: string;
  scheduler?: Scheduler;
}

export function initCommand(ctx: CliContext): CommandModule<object, InitArgs> {
  return {
    command: 'init',
    describe: 'Set up a real account: asks (or takes as flags) the service, the organization, the API key, time zone, snapshot, output root and books, checks each against the service, writes config/payexport.json',
    builder: (y: Argv<object>) =>
      y
        .option('config', { type: 'string', describe: `the config file to write (default: env PAYEXPORT_CONFIG, else ${DEFAULT_CONFIG_PATH}, where every command looks)` })
        .option('force', { type: 'boolean', describe: 'replace an existing config file; at a terminal the API key is asked again and replaces the saved key file (under --yes a saved key is kept, and said so; the signing key is always kept)' })
        .option('yes', { type: 'boolean', describe: 'ask nothing: every answer from a flag, the environment or its default' })
        .option('base-url', { type: 'string', describe: "the service: 'production' (default), 'staging', or another base URL including /v1 (env PAYEXPORT_BASE_URL)" })
        .option('organization', { type: 'string', describe: 'organization UUID (env PAYEXPORT_ORGANIZATION_ID)' })
        .option('environment', { type: 'string', array: true, describe: "the key's environment UUID (default: every environment the key sees)" })
        .option('key-env', { type: 'string', describe: 'the variable holding the API key, written into the config by name (default PAYEXPORT_API_KEY)' })
        .option('key-file', { type: 'string', describe: 'where a key typed at the prompt is saved, mode 600 (default: ~/.config/payexport/org-<id>.api-key, outside the checkout; inside a checkout a .gitignore entry is written with it)' })
        .option('tz', { type: 'string', describe: 'the books\' time zone, IANA (default: this machine\'s)' })
        .option('snapshot', { type: 'string', describe: "'embedded' (default), 'env' (Postgres at DATABASE_URL) or a postgres:// URL without a password" })
        .option('data-dir', { type: 'string', describe: 'the embedded database folder (default data/org-<first 8 of the organization id>)' })
        .option('out', { type: 'string', describe: "this account's output root (default reports/org-<first 8 of the organization id>)" })
        .option('books', { type: 'boolean', describe: 'set up journal entries, lots and fetched prices (default yes; --no-books for none)' })
        .option('books-currency', { type: 'string', describe: "the books' currency, ISO 4217 (default USD)" })
        .option('scheduler', { choices: SCHEDULERS, describe: 'which scheduler line to print at the end (default cron)' })
        .epilog(
          examplesEpilog([
            ['payexport init', 'asks each question at the terminal (the key without echo)'],
            ['PAYEXPORT_API_KEY=… payexport init --yes --organization <uuid> --tz America/New_York', 'for a script: nothing asked'],
          ]),
        )
        .epilog(`\n${exitCodesEpilog('init')}`) as Argv<InitArgs>,
    handler: async (args) => {
      const prompter = args.yes ? null : terminalPrompter(process.stdin, ctx.stdout);
      try {
        // loaded here, not at the top: every other command would pay for init's modules at start
        const { runInit } = await import('../../setup/run-init.js');
        await runInit({
          configPath: configFileToWrite(args.config, ctx.env),
          force: args.force === true,
          flags: {
            baseUrl: args['base-url'],
            organization: args.organization,
            environment: args.environment,
            keyEnv: args['key-env'],
            keyFile: args['key-file'],
            tz: args.tz,
            snapshot: args.snapshot,
            dataDir: args['data-dir'],
            out: args.out,
            books: args.books,
            booksCurrency: args['books-currency'],
            scheduler: args.scheduler,
          },
          prompter,
          env: ctx.env,
          cwd: ctx.cwd,
          scrubber: ctx.scrubber,
          now: ctx.clock(),
          print: (line) => ctx.stdout.write(ctx.scrubber.scrub(line) + '\n'),
          showError: (error) => ctx.stderr.write(ctx.scrubber.scrub(`payexport: ${withHint(error instanceof Error ? error.message : String(error), error instanceof AppError ? error.type : undefined)}`) + '\n'),
        });
        ctx.exitCode = 0;
      } finally {
        prompter?.close();
      }
    },
  };
}
