/**
 * `payexport doctor`: the checklist of src/setup/doctor/run-doctor.ts with the jobs' own options,
 * so it checks exactly the configuration tonight's run will load. Exit 0 when every check passed,
 * 78 when one did not.
 */
import { exitCodesEpilog } from '../command-exit-codes.js';
import type { Argv, CommandModule } from 'yargs';
import type { CliContext } from '../cli-context.js';
import { withCommonOptions, type CommonArgs } from '../common-options.js';
import { examplesEpilog } from '../help.js';
import { loadCliConfig } from '../run-job.js';
import { chooseConfigFile } from '../../config/config-file-choice.js';

export function doctorCommand(ctx: CliContext): CommandModule<object, CommonArgs> {
  return {
    command: 'doctor',
    describe: "Will tonight's run work? Config, key and its environments, the service's clock, snapshot, locks, output root, prices, notification destinations: ✓ / ✗ with the fix",
    builder: (y: Argv<object>) =>
      withCommonOptions(
        y,
        'check',
        `${examplesEpilog([
          ['payexport doctor --config config/payexport.json', 'the checklist; exit 0 only when every line is ✓'],
          ['payexport doctor --config config/payexport.json || mail -s "payexport not ready" ops@example.com', 'from a scheduler, before the night'],
        ])}`,
      ).epilog(`\n${exitCodesEpilog('doctor')}`) as Argv<CommonArgs>,
    handler: async (args) => {
      // loaded here, not at the top: every other command would pay for the checklist's modules at start
      const { runDoctor } = await import('../../setup/doctor/run-doctor.js');
      ctx.exitCode = await runDoctor({
        load: () => loadCliConfig(ctx, args, { collectSecretProblems: true }),
        configChoice: chooseConfigFile(args.config, ctx.env, ctx.cwd),
        env: ctx.env,
        cwd: ctx.cwd,
        scrubber: ctx.scrubber,
        now: ctx.clock,
        print: (line) => ctx.stdout.write(ctx.scrubber.scrub(line) + '\n'),
      });
    },
  };
}
