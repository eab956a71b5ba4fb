/** `payexport audit-pack`: one archive for the auditor — a closed month, its amendments, the chain, the keys, verify --chain's answer and a README (docs/audit.md#the-audit-pack). */
import { existsSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import type { Argv, CommandModule } from 'yargs';
import type { CliContext } from '../cli-context.js';
import { AppError, usageError } from '../../util/errors.js';
import { exitCodesEpilog } from '../command-exit-codes.js';
import { withCommonOptions, type CommonArgs } from '../common-options.js';
import { examplesEpilog } from '../help.js';
import { loadCliConfig } from '../run-job.js';

interface AuditPackArgs extends CommonArgs {
  dir?: string;
  month?: string;
  job: string;
  archive?: string;
}

export function auditPackCommand(ctx: CliContext): CommandModule<object, AuditPackArgs> {
  return {
    command: 'audit-pack [dir]',
    describe: "Write one archive for an auditor: a period's folder and amendments, the chain of closes, the public keys, verify --chain's answer and a README of checks to reperform",
    builder: (y: Argv<object>) =>
      withCommonOptions(y, 'pack')
        .positional('dir', { type: 'string', describe: 'a published folder, e.g. reports/month-end/2026-10 (instead of --month)' })
        .option('month', { type: 'string', describe: 'the month, YYYY-MM, under the output root' })
        .option('job', { type: 'string', default: 'month-end', describe: 'the job whose folder to pack (with --month)' })
        .option('archive', { type: 'string', describe: 'the archive to write (default: audit-<job>-<period>.tar.gz in the current folder)' })
        .epilog(
          `${examplesEpilog([
            ['payexport audit-pack --month 2026-10', "October's close, its amendments and everything to check them, in audit-month-end-2026-10.tar.gz"],
            ['payexport audit-pack reports/month-end/2026-10 --archive /tmp/october.tar.gz', 'the same, from the folder'],
          ])}\n\n${exitCodesEpilog('audit-pack')}`,
        ) as unknown as Argv<AuditPackArgs>,
    handler: async (args) => {
      if ((args.dir === undefined) === (args.month === undefined)) throw usageError('bad_usage', 'name a published folder or --month YYYY-MM (one of the two)');
      if (args.month !== undefined && !/^\d{4}-(0[1-9]|1[0-2])$/.test(args.month)) throw usageError('bad_month', `--month must be YYYY-MM, got ${JSON.stringify(args.month)}`);
      const { reportRoot } = await import('../../config/output-root.js');
      const where = args.dir !== undefined ? folderParts(resolve(ctx.cwd, args.dir)) : { root: reportRoot(loadCliConfig(ctx, args).config, ctx.cwd).root, job: args.job, period: args.month as string };
      const archive = resolve(ctx.cwd, args.archive ?? `audit-${where.job}-${where.period}.tar.gz`);
      if (existsSync(archive)) throw usageError('archive_exists', `${archive} already exists: name another --archive`);
      const { writeAuditPack } = await import('../../sinks/audit-pack.js');
      const { outputError } = await import('../../sinks/output-file.js');
      const pack = await writeAuditPack({ ...where, archive }).catch((error: unknown) => {
        throw error instanceof AppError ? error : outputError(error, archive);
      });
      ctx.stdout.write(`wrote ${pack.archive}: ${where.job} ${pack.folders.join(', ')}, the chain, the public keys and a README of the checks to reperform\n`);
      if (pack.broken) throw new AppError('dataErr', 'chain_broken', pack.verifyLine.replace(/^BREAK /, ''));
      ctx.stdout.write(`${pack.verifyLine}\n`);
    },
  };
}

/** `<root>/<job>/<period>[.amended-N]` → its parts (an amendment packs its period). */
function folderParts(dir: string): { root: string; job: string; period: string } {
  if (!existsSync(resolve(dir, 'manifest.json'))) throw usageError('not_a_report', `'${dir}' is not a report folder: it has no manifest.json`);
  return { root: dirname(dirname(dir)), job: basename(dirname(dir)), period: basename(dir).replace(/\.amended-\d+$/, '') };
}
