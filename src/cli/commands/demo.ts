/**
 * `payexport demo`: the whole product on one machine with nothing installed — the simulator with
 * a realistic seeded dataset, the embedded database under data/demo, then a month-end (October)
 * and an ad hoc export (November so far), printing where the files are and how they reconciled.
 * Its settings are config/demo.json, an ordinary config file; the run is hermetic: the user's
 * DATABASE_URL, keys and PAYEXPORT_* variables are never read.
 */
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { JOB_FLAGS } from '../../jobs/pipeline-spec.js';
import type { Argv, CommandModule } from 'yargs';
import type { PipelineOutcome, PipelineSpec } from '../../jobs/pipeline.js';
import { monthPeriod, rangePeriod } from '../../model/period.js';
import { DATASET_PROFILES, type DatasetProfile } from '../../sim/dataset/options.js';
import type { CliContext } from '../cli-context.js';
import { exitCodesEpilog } from '../command-exit-codes.js';
import { SECRETS_EPILOG } from '../help.js';
import { runJob } from '../run-job.js';
import { formatSummary } from '../summary.js';

/** Shipped with the package (package.json "files"), found from the code, not from the working directory. */
export const DEMO_CONFIG = fileURLToPath(new URL('../../../config/demo.json', import.meta.url));

/** The simulated organization's data runs from 2026-09-01 to 2026-11-22 (docs/simulator.md). */
const DEMO_MONTH = '2026-10';
const DEMO_RANGE = { from: '2026-11-01', to: '2026-11-21' } as const;

interface DemoArgs {
  seed: number;
  scale: number;
  wallets: number;
  profile: DatasetProfile;
  config: string;
  out?: string;
  'data-dir'?: string;
  tz?: string;
  quiet?: boolean;
  'log-format'?: 'pretty' | 'json';
}

export function demoCommand(ctx: CliContext): CommandModule<object, DemoArgs> {
  return {
    command: 'demo',
    describe: 'Simulator + embedded database: a month-end and an export, end to end, no setup',
    builder: (y: Argv<object>) =>
      y
        .option('seed', { type: 'number', default: 7, describe: 'dataset seed' })
        .option('scale', { type: 'number', default: 5000, describe: 'payments in the simulated organization' })
        .option('wallets', { type: 'number', default: 12, describe: 'wallets in the simulated organization' })
        .option('profile', { choices: DATASET_PROFILES, default: 'business' as DatasetProfile, describe: 'business: a mid-sized company; stress: every extreme (hostile text, amounts above 2^53)' })
        .option('config', { type: 'string', default: DEMO_CONFIG, defaultDescription: 'config/demo.json', describe: 'the demo settings (tz, out, dataDir, formats, ...)' })
        .option('out', { type: 'string', describe: 'output root (default from config/demo.json: reports/demo/, a root of its own)' })
        .option('data-dir', { type: 'string', describe: 'embedded database folder (default from config/demo.json: data/demo)' })
        .option('tz', { type: 'string', describe: 'reporting time zone (default from config/demo.json: America/New_York)' })
        .option('quiet', { type: 'boolean', describe: 'only the closing summaries' })
        .option('log-format', { choices: ['pretty', 'json'] as const, describe: 'default: pretty on a TTY, json otherwise' })
        .example('$0 demo', 'what `npm run demo` runs')
        .example('$0 demo --scale 100000 --tz UTC', 'a bigger organization')
        .epilog(SECRETS_EPILOG)
        .epilog(`\n${exitCodesEpilog('demo')}`) as unknown as Argv<DemoArgs>,
    handler: (args) => runDemo(ctx, args),
  };
}

/** The process environment without anything payexport would read as settings or secrets. */
function hermeticEnv(env: Readonly<Record<string, string | undefined>>): Record<string, string | undefined> {
  return Object.fromEntries(Object.entries(env).filter(([name]) => !/^(PAYEXPORT_|DATABASE_URL$|JOB_COMPLETION_INDEX$)/.test(name)));
}

/** The simulator started, October's month-end and November's export run against it, then where the files are. */
async function runDemo(ctx: CliContext, args: DemoArgs): Promise<void> {
  const [{ runPipeline }, { startSimulator }] = await Promise.all([import('../../jobs/pipeline.js'), import('../../sim/start-simulator.js')]);
  const sim = await startSimulator({ seed: args.seed, scale: args.scale, wallets: args.wallets, profile: args.profile });
  try {
    ctx.stdout.write(`simulator: ${sim.baseUrl} — organization ${sim.organizationId}, ${args.scale} payments over ${args.wallets} wallets (seed ${args.seed}, ${args.profile})\n`);
    const overrideFlags = {
      baseUrl: sim.baseUrl,
      organization: sim.organizationId,
      ...(args.out !== undefined ? { out: args.out } : {}),
      ...(args['data-dir'] !== undefined ? { dataDir: args['data-dir'] } : {}),
      ...(args.tz !== undefined ? { tz: args.tz } : {}),
    };
    // Hermetic: the simulator's organization-wide token, nothing of the user's environment but PATH-like basics.
    const env = { ...hermeticEnv(ctx.env), PAYEXPORT_BEARER_TOKEN: sim.bearerToken };
    const outcomes: PipelineOutcome[] = [];
    let dataDir = '';
    const run = async (title: (tz: string) => string, spec: (now: Date, tz: string) => PipelineSpec): Promise<number> =>
      runJob(
        ctx,
        { config: args.config, ...(args.quiet !== undefined ? { quiet: args.quiet } : {}), ...(args['log-format'] !== undefined ? { 'log-format': args['log-format'] } : {}) },
        async (jobEnv) => {
          const { tz } = jobEnv.loaded.config;
          dataDir = jobEnv.loaded.config.dataDir;
          ctx.stdout.write(`\n== ${title(tz)}\n`);
          // Its folders are signed by a demo key kept with its snapshot (data/ is ignored by git), never
          // the installation's key: the demo writes nothing outside its working folder.
          const signingKeyFile = join(resolve(ctx.cwd, dataDir), 'signing-key.pem');
          const outcome = await runPipeline({ ...jobEnv, signingKeyFile }, spec(jobEnv.clock(), tz));
          outcomes.push(outcome);
          jobEnv.print(formatSummary(outcome));
          return outcome.exitCode;
        },
        { overrideFlags, env, sayConfig: false },
      );
    const monthEnd = await run(
      (tz) => `month-end ${DEMO_MONTH} (${tz})`,
      (now, tz) => ({
        command: 'month-end',
        job: 'month-end',
        ...JOB_FLAGS['month-end'],
        period: monthPeriod(DEMO_MONTH, tz, now),
        pull: true,
        incremental: false,
        closePeriod: true,
        // The simulated organization always has a few payments in flight; close anyway and list them.
        allowOpen: true,
        dryRun: false,
      }),
    );
    const exported = await run(
      (tz) => `export ${DEMO_RANGE.from} .. ${DEMO_RANGE.to} (${tz})`,
      (now, tz) => ({
        command: 'export',
        job: 'export',
        ...JOB_FLAGS.export,
        period: rangePeriod(DEMO_RANGE.from, DEMO_RANGE.to, tz, now),
        pull: true,
        incremental: false,
        closePeriod: false,
        allowOpen: false,
        dryRun: false,
      }),
    );
    const dirs = outcomes.map((o) => o.dir).filter((d): d is string => d !== null);
    ctx.stdout.write(`\nOpen the workbooks: ${dirs.join(' and ')} (report.xlsx, CSV files, manifest.json).\n`);
    ctx.stdout.write(`Check them: ${dirs.map((d) => `payexport verify ${d}`).join(' && ')}\n`);
    ctx.stdout.write(`Look inside the snapshot: payexport db shell --data-dir ${dataDir}\n`);
    ctx.exitCode = Math.max(monthEnd, exported);
  } finally {
    await sim.close();
  }
}
