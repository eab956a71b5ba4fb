/**
 * `payexport deliver <report folder>`: deliver an already-published report folder again, alone —
 * no pull, no report, no lock on the period: after a delivery failed, or to a destination added
 * later. One line per destination; exit 0 when every destination has the folder (delivered now or
 * already there), 69 when one does not, 78 when the config has no destination, 64 for a folder
 * that is not a report.
 */
import { exitCodesEpilog } from '../command-exit-codes.js';
import type { Argv, CommandModule } from 'yargs';
import { AppError, configError } from '../../util/errors.js';
import { createLogger, defaultLogFormat } from '../../util/log.js';
import { newRunId } from '../../jobs/run-key.js';
import type { CliContext } from '../cli-context.js';
import { withCommonOptions, type CommonArgs } from '../common-options.js';
import { examplesEpilog } from '../help.js';
import { loadCliConfig } from '../run-job.js';
import { configFileLine } from '../../config/config-file-choice.js';

interface DeliverArgs extends CommonArgs {
  dir: string;
  to?: string[];
}

export function deliverCommand(ctx: CliContext): CommandModule<object, DeliverArgs> {
  return {
    command: 'deliver <dir>',
    describe: 'Deliver a published report folder to the delivery destinations again (after a failed delivery): no pull, no rebuild',
    builder: (y: Argv<object>) =>
      withCommonOptions(y, 'deliver')
        .positional('dir', { type: 'string', demandOption: true, describe: 'a report folder, e.g. reports/month-end/2026-10' })
        .option('to', { type: 'string', array: true, describe: 'only these destinations (names from delivery.destinations; default: those chosen for the folder\'s job)', group: 'Delivery:' })
        .epilog(
          examplesEpilog([
            ['payexport deliver reports/month-end/2026-10', 'retry a failed delivery; what is already there is not sent again'],
            ['payexport deliver reports/nightly/2026-11-21 --to accountant-sftp', 'one destination only'],
          ]),
        )
        .epilog(`\n${exitCodesEpilog('deliver')}`) as Argv<DeliverArgs>,
    handler: async (args) => {
      const loaded = loadCliConfig(ctx, args);
      const runId = newRunId(ctx.clock());
      const log = createLogger({ runId, scrubber: ctx.scrubber, level: loaded.config.logLevel, format: loaded.config.logFormat ?? defaultLogFormat(ctx.stderr) });
      log.info(configFileLine(loaded.configChoice));
      const all = loaded.config.delivery.destinations;
      if (all.length === 0) throw configError('no_delivery_destinations', 'no delivery destinations in the configuration: add delivery.destinations (see docs/delivery.md)');
      const unknown = (args.to ?? []).filter((name) => !all.some((d) => d.name === name));
      if (unknown.length > 0) throw configError('unknown_delivery_destination', `no delivery destination named ${unknown.join(', ')} in the configuration`);
      const { readReportToDeliver } = await import('../../delivery/report-to-deliver.js');
      const { deliverPublished, deliverySummaryLines } = await import('../../delivery/delivering-run.js');
      const report = await readReportToDeliver(args.dir);
      const records = await deliverPublished({ loaded, runId, cwd: ctx.cwd, processEnv: ctx.env, scrubber: ctx.scrubber, log, dir: args.dir, job: report.job, ...(args.to ? { only: args.to } : {}) });
      if (records.length === 0) throw configError('no_delivery_destinations', `no delivery destination is chosen for ${report.job} reports (see "when" in delivery.destinations, or name one with --to)`);
      for (const line of deliverySummaryLines(records, args.dir)) ctx.stdout.write(ctx.scrubber.scrub(line) + '\n');
      const failed = records.filter((r) => r.outcome === 'failed').length;
      if (failed > 0) throw new AppError('unavailable', 'delivery_failed', `${failed} of ${records.length} destination(s) did not get ${report.job}/${report.folder}`);
      ctx.exitCode = 0;
    },
  };
}
