#!/usr/bin/env node
import yargs from 'yargs';
import { hideBin } from 'yargs/helpers';
import { AppError, exitCodeOf } from '../util/errors.js';
import { ExitCode } from '../util/exit-codes.js';
import { SecretScrubber } from '../util/secret-scrubber.js';
import { toolInfo } from '../sinks/tool-info.js';
import type { CliContext } from './cli-context.js';
import { withHint } from './error-hints.js';
import { JOB_EPILOG } from './help.js';
import { dbCommand } from './commands/db.js';
import { demoCommand } from './commands/demo.js';
import { doctorCommand } from './commands/doctor.js';
import { initCommand } from './commands/init.js';
import { listenCommand } from './commands/listen.js';
import { webhooksCommand } from './commands/webhooks.js';
import { exportCommand, monthEndCommand, nightlyCommand, reportCommand } from './commands/job-commands.js';
import { notifyCommand } from './commands/notify.js';
import { simCommand } from './commands/sim.js';
import { verifyCommand } from './commands/verify.js';

/**
 * payexport's entry point: a registry of command modules (src/cli/commands/*), nothing else.
 * Each command parses its flags, calls one job and returns; errors map to exit codes here, as ONE
 * line on stderr (the stack only with --verbose), scrubbed of every secret loaded.
 */
const COMMANDS = new Set(['export', 'nightly', 'month-end', 'report', 'demo', 'sim', 'verify', 'db', 'notify', 'listen', 'webhooks', 'init', 'doctor']);

async function main(argv: string[], ctx: CliContext): Promise<number> {
  const parser = yargs(argv)
    .scriptName('payexport')
    .usage('$0 <command> [options]')
    .strict()
    .demandCommand(1, 'Name a command.')
    .recommendCommands()
    .wrap(Math.min(120, process.stdout.columns ?? 100))
    .example('$0 demo', 'the whole product against a local simulator, nothing to set up')
    .example('$0 month-end --month 2026-10 --tz America/New_York', 'close October')
    .example('$0 nightly', 'from cron: yesterday, with the look-back sweep')
    .example('$0 <command> --help', 'options, examples and exit codes of one command')
    .epilog(JOB_EPILOG)
    .help()
    // from the package, not from the working directory (yargs would look for a package.json above the cwd)
    .version(toolInfo().version)
    .fail((message, error) => {
      throw error ?? new AppError('usage', 'bad_usage', message);
    })
    .command(exportCommand(ctx))
    .command(nightlyCommand(ctx))
    .command(monthEndCommand(ctx))
    .command(reportCommand(ctx))
    .command(demoCommand(ctx))
    .command(simCommand)
    .command(verifyCommand(ctx))
    .command(dbCommand(ctx))
    .command(notifyCommand(ctx))
    .command(listenCommand(ctx))
    .command(webhooksCommand(ctx))
    .command(initCommand(ctx))
    .command(doctorCommand(ctx));
  try {
    await parser.parseAsync();
    return ctx.exitCode;
  } catch (error) {
    const lines = (error instanceof Error ? error.message : String(error)).split('\n').map((line) => line.trim()).filter((line) => line !== '');
    // yargs spreads a usage error over lines ("Invalid values:" / "Argument: job, Given: …"): keep them all, on one line
    const text = (error instanceof AppError && error.type === 'bad_usage' ? lines.join(' ') : lines[0]) ?? '';
    const message = withHint(text, error instanceof AppError ? error.type : undefined);
    const command = COMMANDS.has(argv[0] ?? '') ? `${argv[0]} ` : '';
    const hint = error instanceof AppError && error.exit === 'usage' ? ` (see \`payexport ${command}--help\`)` : '';
    // ONE line: cron mails and log collectors show it whole; the stack only on request.
    ctx.stderr.write(ctx.scrubber.scrub(`payexport: ${message}${hint}`) + '\n');
    if (argv.includes('--verbose') && error instanceof Error && error.stack) ctx.stderr.write(ctx.scrubber.scrub(error.stack) + '\n');
    return exitCodeOf(error);
  }
}

const context: CliContext = { env: process.env, cwd: process.cwd(), stdout: process.stdout, stderr: process.stderr, scrubber: new SecretScrubber(), exitCode: ExitCode.ok };
process.exitCode = await main(hideBin(process.argv), context);
