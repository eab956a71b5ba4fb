#!/usr/bin/env node
import yargs from 'yargs';
import { hideBin } from 'yargs/helpers';
import { AppError, exitCodeOf } from '../util/errors.js';
import { EXIT_CODE_MEANINGS, ExitCode } from '../util/exit-codes.js';
import { SecretScrubber } from '../util/secret-scrubber.js';
import type { CliContext } from './cli-context.js';
import { dbCommand } from './commands/db.js';
import { demoCommand } from './commands/demo.js';
import { exportCommand, monthEndCommand, nightlyCommand, reportCommand } from './commands/job-commands.js';
import { simCommand } from './commands/sim.js';
import { verifyCommand } from './commands/verify.js';

/**
 * payexport's entry point: a registry of command modules (src/cli/commands/*), nothing else.
 * Each command parses its flags, calls one job and returns; errors map to exit codes here, as ONE
 * line on stderr (the stack only with --verbose), scrubbed of every secret loaded.
 */
const EPILOG = `Exit codes:\n${Object.entries(EXIT_CODE_MEANINGS)
  .map(([code, meaning]) => `  ${code.padStart(2)}  ${meaning}`)
  .join('\n')}\n\nSecrets come from the environment only: PAYEXPORT_API_KEY or PAYEXPORT_BEARER_TOKEN, DATABASE_URL.`;

async function main(argv: string[], ctx: CliContext): Promise<number> {
  const parser = yargs(argv)
    .scriptName('payexport')
    .usage('$0 <command> [options]')
    .strict()
    .demandCommand(1, 'Name a command.')
    .recommendCommands()
    .wrap(Math.min(120, process.stdout.columns ?? 100))
    .epilog(EPILOG)
    .help()
    .version()
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
    .command(dbCommand(ctx));
  try {
    await parser.parseAsync();
    return ctx.exitCode;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    ctx.stderr.write(ctx.scrubber.scrub(`payexport: ${message.split('\n')[0]}`) + '\n');
    if (argv.includes('--verbose') && error instanceof Error && error.stack) ctx.stderr.write(ctx.scrubber.scrub(error.stack) + '\n');
    if (error instanceof AppError && error.exit === 'usage') ctx.stderr.write('Run `payexport --help` for usage.\n');
    return exitCodeOf(error);
  }
}

const context: CliContext = { env: process.env, cwd: process.cwd(), stdout: process.stdout, stderr: process.stderr, scrubber: new SecretScrubber(), exitCode: ExitCode.ok };
process.exitCode = await main(hideBin(process.argv), context);
