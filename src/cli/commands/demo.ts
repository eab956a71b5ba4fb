/**
 * `payexport demo`: the whole product on one machine with nothing installed — the simulator with
 * a realistic seeded dataset, the embedded database under data/demo, then a month-end (October)
 * and an ad hoc export (November so far), printing where the files are and how they reconciled.
 */
import type { Argv, CommandModule } from 'yargs';
import { runPipeline, type PipelineOutcome } from '../../jobs/pipeline.js';
import { startSimulator } from '../../sim/start-simulator.js';
import { monthPeriod, rangePeriod } from '../../util/time.js';
import type { CliContext } from '../cli-context.js';
import { runJob } from '../run-job.js';
import { formatSummary } from '../summary.js';

interface DemoArgs {
  seed: number;
  scale: number;
  wallets: number;
  out?: string;
  'data-dir': string;
  tz: string;
  quiet?: boolean;
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
        .option('out', { type: 'string', describe: 'output root (default reports/)' })
        .option('data-dir', { type: 'string', default: 'data/demo', describe: 'embedded database folder for the demo' })
        .option('tz', { type: 'string', default: 'America/New_York', describe: 'reporting time zone' })
        .option('quiet', { type: 'boolean', describe: 'only the closing summary' })
        .example('$0 demo', 'what `npm run demo` runs')
        .example('$0 demo --scale 100000 --tz UTC', 'a bigger organization') as unknown as Argv<DemoArgs>,
    handler: async (args) => {
      const sim = await startSimulator({ seed: args.seed, scale: args.scale, wallets: args.wallets });
      try {
        ctx.stdout.write(`simulator: ${sim.baseUrl} — organization ${sim.organizationId}, ${args.scale} payments over ${args.wallets} wallets (seed ${args.seed})\n`);
        const overrideFlags = {
          baseUrl: sim.baseUrl,
          organization: sim.organizationId,
          dataDir: args['data-dir'],
          tz: args.tz,
          ...(args.out !== undefined ? { out: args.out } : {}),
        };
        // The simulator's organization-wide token; the demo never touches the user's own credentials or database.
        const overrideEnv = { PAYEXPORT_BEARER_TOKEN: sim.bearerToken, PAYEXPORT_API_KEY: '', DATABASE_URL: '' };
        const outcomes: PipelineOutcome[] = [];
        const run = async (label: string, spec: (now: Date) => Parameters<typeof runPipeline>[1]): Promise<number> => {
          ctx.stdout.write(`\n== ${label}\n`);
          return runJob(
            ctx,
            { quiet: args.quiet ?? false },
            async (env) => {
              const outcome = await runPipeline(env, spec(env.clock()));
              outcomes.push(outcome);
              env.print(formatSummary(outcome));
              return outcome.exitCode;
            },
            { overrideFlags, overrideEnv },
          );
        };
        const monthEnd = await run(`month-end 2026-10 (${args.tz})`, (now) => ({
          command: 'month-end',
          job: 'month-end',
          period: monthPeriod('2026-10', args.tz, now),
          pull: true,
          incremental: false,
          closePeriod: true,
          // The simulated organization always has a few payments in flight; close anyway and list them.
          allowOpen: true,
          dryRun: false,
        }));
        const exported = await run(`export 2026-11-01 .. 2026-11-21 (${args.tz})`, (now) => ({
          command: 'export',
          job: 'export',
          period: rangePeriod('2026-11-01', '2026-11-21', args.tz, now),
          pull: true,
          incremental: false,
          closePeriod: false,
          allowOpen: false,
          dryRun: false,
        }));
        ctx.stdout.write(`\nOpen the workbooks: ${outcomes.map((o) => o.dir).filter(Boolean).join(' and ')} (report.xlsx, CSV files, manifest.json).\n`);
        ctx.stdout.write(`Check them: payexport verify ${outcomes[0]?.dir ?? 'reports/month-end/2026-10'}\n`);
        ctx.stdout.write(`Look inside the snapshot: payexport db shell --data-dir ${args['data-dir']}\n`);
        ctx.exitCode = Math.max(monthEnd, exported);
      } finally {
        await sim.close();
      }
    },
  };
}
