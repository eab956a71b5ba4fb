/**
 * `payexport notify test`: the sample message to every configured destination (pings as a log
 * entry that leaves the check's state alone), one line per destination: delivered, or why not.
 * Exit 0 when every destination took it, 69 when one did not, 78 when none is configured.
 */
import { exitCodesEpilog } from '../command-exit-codes.js';
import type { Argv, CommandModule } from 'yargs';
import { AppError, configError } from '../../util/errors.js';
import { createLogger } from '../../util/log.js';
import { newRunId } from '../../jobs/run-key.js';
import type { CliContext } from '../cli-context.js';
import { withCommonOptions, type CommonArgs } from '../common-options.js';
import { loadCliConfig } from '../run-job.js';
import { configFileLine } from '../../config/config-file-choice.js';

export function notifyCommand(ctx: CliContext): CommandModule<object, CommonArgs> {
  return {
    command: 'notify <action>',
    describe: 'Notifications: `notify test` sends a sample message to every destination of the config',
    builder: (y: Argv<object>) =>
      withCommonOptions(y, 'config')
        .positional('action', { choices: ['test'] as const, describe: 'test: send the sample message' })
        .example('$0 notify test --config payexport.json', 'each destination: delivered, or why not (DNS, TLS, the server\'s words)')
        .epilog(`\n${exitCodesEpilog('notify')}`) as Argv<CommonArgs>,
    handler: async (args) => {
      // a sample message needs no API key: a key variable this shell lacks is no reason to stop
      const loaded = loadCliConfig(ctx, args, { collectSecretProblems: true });
      if (args.verbose === true) ctx.stderr.write(`${configFileLine(loaded.configChoice)}\n`);
      const { notify } = loaded.config;
      if (notify.destinations.length === 0) throw configError('no_destinations', 'no notify destinations in the configuration: add notify.destinations (see README "Notifications")');
      const { RunNotifier } = await import('../../notify/run-notifier.js');
      const { sampleMessage } = await import('../../notify/sample-message.js');
      const runId = newRunId(ctx.clock());
      const log = createLogger({ runId, scrubber: ctx.scrubber, level: 'error', format: 'json' });
      const notifier = new RunNotifier({ notify, job: null, runId, env: ctx.env, cwd: ctx.cwd, scrubber: ctx.scrubber, log });
      const results = await notifier.finish(sampleMessage(runId, ctx.clock()));
      const width = Math.max(...results.map((r) => r.destination.length));
      for (const r of [...results].sort((a, b) => notify.destinations.findIndex((d) => d.name === a.destination) - notify.destinations.findIndex((d) => d.name === b.destination))) {
        const tries = `${r.attempts} attempt${r.attempts === 1 ? '' : 's'}, ${r.duration_ms} ms`;
        const line = `${r.destination.padEnd(width)}  ${r.kind.padEnd(7)}  ${r.outcome === 'delivered' ? `delivered (${tries})` : `NOT delivered: ${r.detail} (${tries})`}`;
        ctx.stdout.write(ctx.scrubber.scrub(line) + '\n');
      }
      const failed = results.filter((r) => r.outcome === 'failed').length;
      if (failed > 0) throw new AppError('unavailable', 'notify_failed', `${failed} of ${results.length} destination(s) did not take the test message`);
      ctx.exitCode = 0;
    },
  };
}
