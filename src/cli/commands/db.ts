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

export function dbCommand(ctx: CliContext): CommandModule<object, CommonArgs> {
  return {
    command: 'db <action>',
    describe: 'Database tasks: migrate | shell',
    builder: (y: Argv<object>) =>
      withCommonOptions(y)
        .positional('action', { choices: ['migrate', 'shell'] as const, demandOption: true })
        .option('port', { type: 'number', default: 5433, describe: 'db shell: port for psql on 127.0.0.1' })
        .example('$0 db migrate --database-url postgres://payexport@db/finance', 'create or upgrade the payexport schema')
        .example('$0 db shell', 'then: psql -h 127.0.0.1 -p 5433 -U postgres postgres') as unknown as Argv<CommonArgs>,
    handler: async (raw) => {
      const args = raw as unknown as CommonArgs & { action: 'migrate' | 'shell'; port: number };
      const loaded = loadCliConfig(ctx, args);
      const { config, secrets } = loaded;
      const dataDir = resolve(ctx.cwd, config.dataDir);
      if (args.action === 'migrate') {
        const { openStore } = await import('../../store/store.js');
        const store = await openStore({ schema: config.dbSchema, ...(secrets.databaseUrl ? { databaseUrl: secrets.databaseUrl } : { dataDir }) });
        try {
          const result = await store.migrate();
          ctx.stdout.write(`schema ${config.dbSchema} on ${secrets.databaseUrl ? redactDatabaseUrl(secrets.databaseUrl) : dataDir}: ${JSON.stringify(result)}\n`);
        } finally {
          await store.close();
        }
        return;
      }
      if (secrets.databaseUrl) throw usageError('shell_needs_embedded', 'db shell serves the embedded database; with a server, use psql on your DATABASE_URL directly');
      const { serveEmbeddedForPsql } = await import('../../store/db-shell.js');
      const shell = await serveEmbeddedForPsql(dataDir, args.port);
      ctx.stdout.write(`embedded database ${dataDir} on 127.0.0.1:${args.port} (one connection at a time)\n  ${shell.psqlCommand}\nSet search_path to ${config.dbSchema}. Ctrl-C to stop.\n`);
      await new Promise<void>((done) => {
        process.once('SIGINT', done);
        process.once('SIGTERM', done);
      });
      await shell.close();
    },
  };
}
