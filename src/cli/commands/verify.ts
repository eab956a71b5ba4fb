/** `payexport verify DIR`: re-hash and strictly re-read a report folder against its manifest; one MISMATCH line per problem, naming file and line. */
import type { Argv, CommandModule } from 'yargs';
import type { CliContext } from '../cli-context.js';
import { AppError } from '../../util/errors.js';
import { exitCodesEpilog } from '../command-exit-codes.js';
import { examplesEpilog } from '../help.js';

export function verifyCommand(ctx: CliContext): CommandModule<object, { dir: string }> {
  return {
    command: 'verify <dir>',
    describe: 'Re-check a report folder against its manifest (sha256, bytes, rows; CSVs read strictly per RFC 4180); non-zero on any mismatch',
    builder: (y: Argv<object>) =>
      y
        .positional('dir', { type: 'string', demandOption: true, describe: 'a report folder, e.g. reports/month-end/2026-10' })
        .epilog(
          `${examplesEpilog([
            ['payexport verify reports/month-end/2026-10', 'prove the files are the ones the run wrote'],
            ['payexport verify reports/month-end/2026-10 && rsync -a reports/ books:/archive/', 'archive only folders that verify'],
          ])}\n\n${exitCodesEpilog('verify')}`,
        ) as Argv<{ dir: string }>,
    handler: async (args) => {
      const { assertReportFolder } = await import('../../sinks/report-folder-check.js');
      await assertReportFolder(args.dir);
      const { verify } = await import('../../sinks/verify.js');
      const result = await verify(args.dir);
      for (const problem of result.problems) ctx.stdout.write(`MISMATCH ${problem.kind}: ${problem.path}: ${problem.message}\n`);
      if (!result.ok) throw new AppError('dataErr', 'verify_failed', `${args.dir} does not match its manifest (${result.problems.length} problem(s))`);
      ctx.stdout.write(`verified ${result.files} file(s) of run ${result.run_id ?? '?'}: sha256, bytes and rows match the manifest\n`);
    },
  };
}
