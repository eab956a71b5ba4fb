/**
 * `export`, `nightly`, `month-end` and `report`: each parses its period, then runs the one
 * pipeline (src/jobs/pipeline.ts) with its own settings. No business logic here. Heavy modules
 * are imported when a command runs, not when the CLI starts.
 */
import { JOB_FLAGS } from '../../jobs/pipeline-spec.js';
import type { Argv, CommandModule } from 'yargs';
import type { JobName, PipelineOutcome, PipelineSpec } from '../../jobs/pipeline.js';
import type { DeliveryRecord } from '../../delivery/delivery-record.js';
import type { JobEnv } from '../../jobs/job-env.js';
import { usageError } from '../../util/errors.js';
import { dayPeriod, monthPeriod, rangePeriod, type Period } from '../../model/period.js';
import type { CliContext } from '../cli-context.js';
import { withCommonOptions, type CommonArgs } from '../common-options.js';
import { exitCodesEpilog } from '../command-exit-codes.js';
import { examplesEpilog, SECRETS_EPILOG } from '../help.js';
import { runJob } from '../run-job.js';
import { formatSummary } from '../summary.js';

interface PeriodArgs extends CommonArgs {
  from?: string;
  to?: string;
  month?: string;
  date?: string;
  job?: JobName;
  'allow-open'?: boolean;
  notify?: boolean;
  deliver?: boolean;
  'adopt-out'?: boolean;
}

const jobEpilog = (examples: ReadonlyArray<readonly [string, string]>): string => `${examplesEpilog(examples)}\n\n${SECRETS_EPILOG}`;

async function runAndSummarize(env: JobEnv, spec: PipelineSpec, notify?: { processEnv: CliContext['env']; enabled: boolean; deliver?: boolean }): Promise<number> {
  // Before anything slow (loading the pipeline's modules, opening the snapshot, the lock): say what starts.
  env.progress.phase('start');
  // Loaded on use: `--help` and usage errors answer without loading the whole pipeline.
  const { runPipeline } = await import('../../jobs/pipeline.js');
  const { notifyingRun } = await import('../../notify/notifying-run.js');
  const outcome = await notifyingRun({ env, spec, processEnv: notify?.processEnv ?? {}, enabled: notify?.enabled ?? false }, async () => {
    const done = await runPipeline(env, spec);
    // delivered only once published, never before; a failed delivery is told, never thrown
    const deliveries = await deliverAfterRun(env, spec, done, notify);
    if (!spec.dryRun && done.report) env.print([formatSummary(done), ...deliveries.lines].join('\n'));
    return { ...done, deliveries: deliveries.records };
  });
  return outcome.exitCode;
}

async function deliverAfterRun(env: JobEnv, spec: PipelineSpec, done: PipelineOutcome, options?: { processEnv: CliContext['env']; deliver?: boolean }): Promise<{ records: DeliveryRecord[]; lines: string[] }> {
  const none = { records: [], lines: [] };
  if (spec.dryRun || spec.command === 'report' || done.dir === null || options === undefined || options.deliver === false) return none;
  if (env.loaded.config.delivery.destinations.length === 0) return none;
  const { deliverPublished, deliverySummaryLines } = await import('../../delivery/delivering-run.js');
  const records = await deliverPublished({ loaded: env.loaded, runId: env.runId, cwd: env.cwd, processEnv: options.processEnv, scrubber: env.scrubber, log: env.log, dir: done.dir, job: spec.job });
  return { records, lines: deliverySummaryLines(records, done.dir) };
}

/** `--no-notify`: this run tells no destination and pings no dead man's switch. */
const withNotifyOption = <T>(y: Argv<T>): Argv<T> =>
  y
    .option('notify', { type: 'boolean', describe: 'send the notify destinations of the config (--no-notify: none for this run)', group: 'Run:' })
    .option('deliver', { type: 'boolean', describe: 'deliver the published folder to the delivery destinations of the config (--no-deliver: none for this run)', group: 'Run:' }) as Argv<T>;
/** `--adopt-out`: the one-time, explicit taking over of an output root (docs/reports.md#one-scope-per-output-root). */
const withAdoptOutOption = <T>(y: Argv<T>): Argv<T> =>
  y.option('adopt-out', {
    type: 'boolean',
    describe: "record the output root as this run's scope: its folders written before manifests named a scope, or another selection of this organization's (never another organization's)",
    group: 'Output:',
  }) as Argv<T>;
const notifyOf = (ctx: CliContext, args: PeriodArgs) => ({ processEnv: ctx.env, enabled: args.notify !== false, deliver: args.deliver !== false });

const base = (command: PipelineSpec['command'], job: JobName, period: Period, args: PeriodArgs): PipelineSpec => ({
  command,
  job,
  ...JOB_FLAGS[job],
  period,
  pull: command !== 'report',
  incremental: command === 'nightly',
  closePeriod: command === 'month-end',
  allowOpen: args['allow-open'] === true,
  dryRun: args['dry-run'] === true,
  adoptOut: args['adopt-out'] === true,
});

export function exportCommand(ctx: CliContext): CommandModule<object, PeriodArgs> {
  return {
    command: 'export',
    describe: 'Ad hoc range: payments created from --from to --to (inclusive dates in --tz)',
    builder: (y: Argv<object>) =>
      withAdoptOutOption(withNotifyOption(withCommonOptions(
        y
          .option('from', { type: 'string', demandOption: true, describe: 'first day, YYYY-MM-DD', group: 'Period (required):' })
          .option('to', { type: 'string', demandOption: true, describe: 'last day (inclusive), YYYY-MM-DD', group: 'Period (required):' }),
        'pull',
        jobEpilog([
          ['payexport export --from 2026-10-01 --to 2026-10-31 --tz America/New_York', 'October in New York time: CSV + XLSX + snapshot'],
          ['payexport export --from 2026-11-01 --to 2026-11-21 --format csv --no-db', 'CSV only, no database'],
        ]),
      ))).epilog(`\n${exitCodesEpilog('export')}`) as Argv<PeriodArgs>,
    handler: async (args) => {
      ctx.exitCode = await runJob(ctx, args, (env) =>
        runAndSummarize(env, base('export', 'export', rangePeriod(args.from!, args.to!, env.loaded.config.tz, env.clock()), args), notifyOf(ctx, args)),
      );
    },
  };
}

export function nightlyCommand(ctx: CliContext): CommandModule<object, PeriodArgs> {
  return {
    command: 'nightly',
    describe: 'Yesterday in --tz, with the look-back sweep and open payments re-read',
    builder: (y: Argv<object>) =>
      withAdoptOutOption(withNotifyOption(withCommonOptions(
        y.option('date', { type: 'string', describe: 'the day to report, YYYY-MM-DD (default: yesterday in --tz)', group: 'Period:' }),
        'pull',
        jobEpilog([
          ['payexport nightly --tz America/New_York', 'from cron, shortly after midnight'],
          ['payexport nightly --date 2026-11-20', 'redo one day'],
        ]),
      ))).epilog(`\n${exitCodesEpilog('nightly')}`) as Argv<PeriodArgs>,
    handler: async (args) => {
      ctx.exitCode = await runJob(ctx, args, (env) => runAndSummarize(env, base('nightly', 'nightly', dayPeriod(args.date, env.loaded.config.tz, env.clock()), args), notifyOf(ctx, args)));
    },
  };
}

export function monthEndCommand(ctx: CliContext): CommandModule<object, PeriodArgs> {
  return {
    command: 'month-end',
    describe: "Fee reconciliation of one month; closes the period (refused while payments are open, unless --allow-open)",
    builder: (y: Argv<object>) =>
      withAdoptOutOption(withNotifyOption(withCommonOptions(
        y
          .option('month', { type: 'string', describe: 'YYYY-MM (default: the previous month in --tz)', group: 'Period:' })
          .option('allow-open', { type: 'boolean', describe: 'close the month even if payments of it are still open (they are carried, listed in open-items.csv)', group: 'Period:' }),
        'pull',
        jobEpilog([
          ['payexport month-end --month 2026-10 --tz America/New_York', 'October: fees tied to ledgers and summaries, period closed'],
          ['payexport month-end --month 2026-10 --allow-open', 'close although some payments are still pending'],
          ['payexport month-end --tz America/New_York', 'from a scheduler on the 2nd: last month'],
        ]),
      ))).epilog(`\n${exitCodesEpilog('month-end')}`) as Argv<PeriodArgs>,
    handler: async (args) => {
      ctx.exitCode = await runJob(ctx, args, (env) => runAndSummarize(env, base('month-end', 'month-end', monthPeriod(args.month, env.loaded.config.tz, env.clock()), args), notifyOf(ctx, args)));
    },
  };
}

export function reportCommand(ctx: CliContext): CommandModule<object, PeriodArgs> {
  return {
    command: 'report',
    describe: 'Rebuild the files of a window from the Postgres snapshot alone (no API calls)',
    builder: (y: Argv<object>) =>
      withAdoptOutOption(withCommonOptions(
        y
          .option('month', { type: 'string', describe: 'YYYY-MM — or --from and --to', group: 'Period (required: --month, or --from with --to):' })
          .option('from', { type: 'string', describe: 'first day, YYYY-MM-DD (with --to)', group: 'Period (required: --month, or --from with --to):' })
          .option('to', { type: 'string', describe: 'last day (inclusive), YYYY-MM-DD', group: 'Period (required: --month, or --from with --to):' })
          .option('job', { choices: ['export', 'nightly', 'month-end'] as const, describe: 'which report folder to rebuild (default: month-end for --month, export for a range)', group: 'Period (required: --month, or --from with --to):' }),
        'report',
        jobEpilog([
          ['payexport report --organization <uuid> --month 2026-10', 'rebuild reports/month-end/2026-10 from the snapshot, no API call'],
          ['payexport report --organization <uuid> --from 2026-10-01 --to 2026-10-31', 'after sharded pulls: build the files once'],
        ]),
      )).epilog(`\n${exitCodesEpilog('report')}`) as Argv<PeriodArgs>,
    handler: async (args) => {
      ctx.exitCode = await runJob(ctx, args, async (env) => {
        const { tz } = env.loaded.config;
        let period: Period;
        if (args.month !== undefined && args.from === undefined && args.to === undefined) period = monthPeriod(args.month, tz, env.clock());
        else if (args.month === undefined && args.from !== undefined && args.to !== undefined) period = rangePeriod(args.from, args.to, tz, env.clock());
        else throw usageError('bad_period', 'report needs either --month YYYY-MM or both --from and --to');
        if (!env.loaded.config.db) throw usageError('no_snapshot', 'report rebuilds files from the snapshot database; it cannot run with --no-db');
        const job = args.job ?? (period.kind === 'month' ? 'month-end' : 'export');
        return runAndSummarize(env, { ...base('report', job, period, args), pull: false });
      });
    },
  };
}
