/**
 * `payexport verify DIR`: re-hash and strictly re-read a report folder against its manifest; one MISMATCH line per problem, naming file and line.
 * `payexport verify --chain ROOT`: every folder under an output root, their signatures, evidence and chain of closes; the first break in one line (docs/audit.md).
 */
import type { Argv, CommandModule } from 'yargs';
import type { CliContext } from '../cli-context.js';
import { AppError } from '../../util/errors.js';
import { exitCodesEpilog } from '../command-exit-codes.js';
import { examplesEpilog } from '../help.js';

interface VerifyArgs {
  dir: string;
  chain?: boolean;
  key?: string[];
}

export function verifyCommand(ctx: CliContext): CommandModule<object, VerifyArgs> {
  return {
    command: 'verify <dir>',
    describe: 'Re-check a report folder against its manifest (sha256, bytes, rows; CSVs read strictly per RFC 4180), or with --chain every folder under a root: signatures, evidence and the chain of closes; non-zero on any mismatch',
    builder: (y: Argv<object>) =>
      y
        .positional('dir', { type: 'string', demandOption: true, describe: 'a report folder, e.g. reports/month-end/2026-10 (with --chain: an output root, e.g. reports/)' })
        .option('chain', { type: 'boolean', describe: 'check every folder under the root: files, signatures, evidence, and the chain of closes and amendments' })
        .option('key', { type: 'string', array: true, describe: 'with --chain: a public key (PEM) handed over out of band; only these keys are trusted (default: the keys kept in ROOT/.audit/keys)' })
        .epilog(
          `${examplesEpilog([
            ['payexport verify reports/month-end/2026-10', 'prove the files are the ones the run wrote'],
            ['payexport verify --chain reports/ --key payexport-signing.pem', 'every close signed by the key you were given, none removed or swapped'],
            ['payexport verify reports/month-end/2026-10 && rsync -a reports/ books:/archive/', 'archive only folders that verify'],
          ])}\n\n${exitCodesEpilog('verify')}`,
        ) as unknown as Argv<VerifyArgs>,
    handler: async (args) => {
      if (args.chain === true) {
        const { chainReport } = await import('../../sinks/chain-report.js');
        const report = await chainReport(args.dir, args.key ?? []);
        if (report.verdict.firstBreak !== null) throw new AppError('dataErr', 'chain_broken', report.line.replace(/^BREAK /, ''));
        ctx.stdout.write(`${report.line}\n`);
        return;
      }
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
