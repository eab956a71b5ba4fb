/**
 * `payexport listen`: the webhook listener with its safety-net sweep (src/listen/). Runs until
 * SIGTERM or SIGINT, then finishes the work in hand and exits 0. No business logic here.
 */
import { exitCodesEpilog } from '../command-exit-codes.js';
import type { Argv, CommandModule } from 'yargs';
import type { ListenConfig } from '../../config/listen-schema.js';
import { describeConfig } from '../../config/load.js';
import { usageError } from '../../util/errors.js';
import { newRunId } from '../../jobs/run-key.js';
import { createLogger, defaultLogFormat } from '../../util/log.js';
import type { CliContext } from '../cli-context.js';
import { withCommonOptions, type CommonArgs } from '../common-options.js';
import { loadCliConfig } from '../run-job.js';
import { configFileLine } from '../../config/config-file-choice.js';

interface ListenArgs extends CommonArgs {
  host?: string;
  port?: number;
  path?: string;
  'secrets-file'?: string;
  'tolerance-seconds'?: number;
  'max-body-bytes'?: number;
  'sweep-minutes'?: number;
  'sweep-lookback-hours'?: number;
}

function overridesOf(args: ListenArgs): Partial<ListenConfig> {
  const out: Partial<ListenConfig> = {};
  if (args.host !== undefined) out.host = args.host;
  if (args.port !== undefined) out.port = args.port;
  if (args.path !== undefined) out.path = args.path;
  if (args['secrets-file'] !== undefined) out.secretsFile = args['secrets-file'];
  if (args['tolerance-seconds'] !== undefined) out.toleranceSeconds = args['tolerance-seconds'];
  if (args['max-body-bytes'] !== undefined) out.maxBodyBytes = args['max-body-bytes'];
  if (args['sweep-minutes'] !== undefined) out.sweepMinutes = args['sweep-minutes'];
  if (args['sweep-lookback-hours'] !== undefined) out.sweepLookbackHours = args['sweep-lookback-hours'];
  return out;
}

export function listenCommand(ctx: CliContext): CommandModule<object, ListenArgs> {
  return {
    command: 'listen',
    describe: 'Keep the snapshot current: receive signed webhook deliveries, with a periodic sweep as the safety net',
    builder: (y: Argv<object>) =>
      withCommonOptions(y, 'listen')
        .option('host', { type: 'string', describe: 'address to listen on (default 0.0.0.0)', group: 'Listener:' })
        .option('port', { type: 'number', describe: 'port (default 8787; 0 = any free port)', group: 'Listener:' })
        .option('path', { type: 'string', describe: 'route the deliveries are POSTed to (default /webhooks/voltage)', group: 'Listener:' })
        .option('secrets-file', { type: 'string', describe: 'webhook secrets {webhookId: [secret, …]}, mode 0600 (env PAYEXPORT_WEBHOOK_SECRETS_FILE)', group: 'Listener:' })
        .option('tolerance-seconds', { type: 'number', describe: 'replay window, both directions (default 300)', group: 'Listener:' })
        .option('max-body-bytes', { type: 'number', describe: 'largest delivery accepted (default 262144)', group: 'Listener:' })
        .option('sweep-minutes', { type: 'number', describe: 'minutes between safety-net sweeps (default 5; 0 = none)', group: 'Listener:' })
        .option('sweep-lookback-hours', { type: 'number', describe: 'how far back by created_at a sweep reads (default 48)', group: 'Listener:' })
        .example('$0 listen --secrets-file /etc/payexport/webhook-secrets.json', 'beside the nightly job, with DATABASE_URL and PAYEXPORT_API_KEY set')
        .epilog(`\n${exitCodesEpilog('listen')}`) as unknown as Argv<ListenArgs>,
    handler: async (args) => {
      if (args['dry-run'] === true) throw usageError('no_dry_run', 'listen has no --dry-run: it writes only what it receives; try --print-config');
      const loaded = loadCliConfig(ctx, args);
      if (args['print-config']) {
        ctx.stdout.write(JSON.stringify(describeConfig(loaded), (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v), 2) + '\n');
        return;
      }
      const format = loaded.config.logFormat ?? defaultLogFormat(ctx.stderr);
      const log = createLogger({ runId: newRunId(ctx.clock()), scrubber: ctx.scrubber, level: loaded.config.logLevel, format });
      log.info(configFileLine(loaded.configChoice));
      const { runListen } = await import('../../listen/run-listen.js');
      const running = await runListen({ loaded, overrides: overridesOf(args), env: ctx.env, log, scrubber: ctx.scrubber });
      await new Promise<void>((resolve) => {
        const onSignal = (signal: NodeJS.Signals): void => {
          log.info({ signal }, 'stopping: finishing the deliveries in hand');
          process.removeListener('SIGINT', onSignal);
          process.removeListener('SIGTERM', onSignal);
          resolve();
        };
        process.on('SIGINT', onSignal);
        process.on('SIGTERM', onSignal);
      });
      await running.close();
      ctx.exitCode = 0;
    },
  };
}
