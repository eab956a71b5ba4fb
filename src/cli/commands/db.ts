/**
 * `payexport db migrate` (apply migrations to --database-url or the embedded database) and
 * `payexport db shell` (serve the embedded database to psql over ONE connection — PGlite is
 * single-session, docs/database.md).
 */
import type { Argv, CommandModule } from 'yargs';
import { resolve } from 'node:path';
import { redactDatabaseUrl } from '../../config/secrets.js';
import { usageError } from '../../util/errors.js';
import type { CliContext } from '../cli-context.js';
import { withCommonOptions, type CommonArgs } from '../common-options.js';
import { loadCliConfig } from '../run-job.js';
import { configFileLine } from '../../config/config-file-choice.js';
import { exitCodesEpilog } from '../command-exit-codes.js';
import { examplesEpilog, SECRETS_EPILOG } from '../help.js';

type DbArgs = CommonArgs & { port?: number };

export function dbCommand(ctx: CliContext): CommandModule<object, object> {
  return {
    command: 'db',
    describe: 'Database tasks: db migrate | db shell (each has its own --help)',
    builder: (y: Argv<object>) =>
      y
        .command(migrateCommand(ctx))
        .command(shellCommand(ctx))
        .demandCommand(1, 'name what to do: payexport db migrate, or payexport db shell')
        .epilog(`\n${exitCodesEpilog('db migrate', 'db shell')}`),
    handler: () => undefined,
  };
}

const DB_EPILOG = (examples: ReadonlyArray<readonly [string, string]>, command: 'db migrate' | 'db shell'): string => `${examplesEpilog(examples)}\n\n${SECRETS_EPILOG}\n\n${exitCodesEpilog(command)}`;

function migrateCommand(ctx: CliContext): CommandModule<object, DbArgs> {
  return {
    command: 'migrate',
    describe: 'Create or upgrade the payexport schema (--database-url, or the embedded database under --data-dir)',
    builder: (y: Argv<object>) =>
      withCommonOptions(y, 'db', DB_EPILOG([
        ['DATABASE_URL=postgres://payexport@db/finance payexport db migrate', 'create or upgrade the payexport schema on a server'],
        ['payexport db migrate --schema books', 'the embedded database under data/, schema books'],
      ], 'db migrate')) as Argv<DbArgs>,
    handler: async (args) => {
      const loaded = loadCliConfig(ctx, args);
      if (args.verbose === true) ctx.stderr.write(`${configFileLine(loaded.configChoice)}\n`);
      const { config, secrets } = loaded;
      const dataDir = resolve(ctx.cwd, config.dataDir);
      const { openDatabaseSnapshot } = await import('../../store/database-snapshot.js');
      const snapshot = await openDatabaseSnapshot({ schema: config.dbSchema, ...(secrets.databaseUrl ? { databaseUrl: secrets.databaseUrl } : { dataDir }) });
      try {
        const result = await snapshot.migrate();
        ctx.stdout.write(`schema ${config.dbSchema} on ${secrets.databaseUrl ? redactDatabaseUrl(secrets.databaseUrl) : dataDir}: ${JSON.stringify(result)}\n`);
      } finally {
        await snapshot.close();
      }
    },
  };
}

function shellCommand(ctx: CliContext): CommandModule<object, DbArgs> {
  return {
    command: 'shell',
    describe: 'Serve the embedded database to psql on 127.0.0.1 (one connection at a time)',
    builder: (y: Argv<object>) =>
      withCommonOptions(
        y.option('port', { type: 'number', default: 5433, describe: 'port for psql on 127.0.0.1', group: 'Shell:' }),
        'db',
        DB_EPILOG([['payexport db shell --data-dir data/demo', 'then, in another terminal: psql -h 127.0.0.1 -p 5433 -U postgres postgres']], 'db shell'),
      ) as Argv<DbArgs>,
    handler: async (args) => {
      const loaded = loadCliConfig(ctx, args);
      if (args.verbose === true) ctx.stderr.write(`${configFileLine(loaded.configChoice)}\n`);
      const { config, secrets } = loaded;
      const dataDir = resolve(ctx.cwd, config.dataDir);
      if (secrets.databaseUrl) throw usageError('shell_needs_embedded', 'db shell serves the embedded database; with a server, use psql on your DATABASE_URL directly');
      const { serveEmbeddedForPsql } = await import('../../store/db/db-shell.js');
      const shell = await serveEmbeddedForPsql(dataDir, args.port ?? 5433);
      ctx.stdout.write(`embedded database ${dataDir} on 127.0.0.1:${args.port ?? 5433} (one connection at a time)\n  ${shell.psqlCommand}\nSet search_path to ${config.dbSchema}. Ctrl-C to stop.\n`);
      await new Promise<void>((done) => {
        process.once('SIGINT', done);
        process.once('SIGTERM', done);
      });
      await shell.close();
    },
  };
}
