#!/usr/bin/env node
import yargs from 'yargs';
import { hideBin } from 'yargs/helpers';
import { AppError, exitCodeOf } from '../util/errors.js';
import { ExitCode } from '../util/exit-codes.js';
import { SecretScrubber } from '../util/secret-scrubber.js';
import { wallClockFrom } from '../util/wall-clock.js';
import { toolInfo } from '../sinks/tool-info.js';
import type { CliContext } from './cli-context.js';
import { withHint } from './error-hints.js';
import { usageFailure } from './usage-failure.js';
import { applyStartUpSettings } from '../platform/start-up.js';
import { ALL_EXIT_CODES_EPILOG, helpWidth, SECRETS_EPILOG } from './help.js';
import { dbCommand } from './commands/db.js';
import { deliverCommand } from './commands/deliver.js';
import { demoCommand } from './commands/demo.js';
import { doctorCommand } from './commands/doctor.js';
import { initCommand } from './commands/init.js';
import { listenCommand } from './commands/listen.js';
import { webhooksCommand } from './commands/webhooks.js';
import { exportCommand, monthEndCommand, nightlyCommand, reportCommand } from './commands/job-commands.js';
import { notifyCommand } from './commands/notify.js';
import { pricesCommand } from './commands/prices.js';
import { simCommand } from './commands/sim.js';
import { verifyCommand } from './commands/verify.js';
import { auditPackCommand } from './commands/audit-pack.js';

/**
 * payexport's entry point: a registry of command modules (src/cli/commands/*), nothing else.
 * Each command parses its flags, calls one job and returns; errors map to exit codes here, as ONE
 * line on stderr (the stack only with --verbose), scrubbed of every secret loaded.
 */
const COMMANDS = new Set(['export', 'nightly', 'month-end', 'report', 'demo', 'sim', 'verify', 'db', 'notify', 'listen', 'webhooks', 'init', 'doctor', 'prices', 'audit-pack']);
const GROUPS: Readonly<Record<string, readonly string[]>> = { prices: ['fetch'], db: ['migrate', 'shell'] };

async function main(argv: string[], ctx: CliContext): Promise<number> {
  const parser = yargs(argv)
    .scriptName('payexport')
    .usage('$0 <command> [options]')
    .strict()
    .demandCommand(1, 'Name a command.')
    .recommendCommands()
    .wrap(helpWidth(argv, process.stdout.columns))
    .example('$0 demo', 'the whole product against a local simulator, nothing to set up')
    .example('$0 month-end --month 2026-10 --tz America/New_York', 'close October')
    .example('$0 nightly', 'from cron: yesterday, with the look-back sweep')
    .example('$0 <command> --help', 'options, examples and exit codes of one command')
    .epilog(`${SECRETS_EPILOG}\n\n${ALL_EXIT_CODES_EPILOG}`)
    .help()
    // from the package, not from the working directory (yargs would look for a package.json above the cwd)
    .version(toolInfo().version)
    .fail((message, error) => {
      // the one parser instance holds the failing command's options at this point (yargs resets it per command)
      throw error ?? usageFailure(message, argv, parser as unknown as Parameters<typeof usageFailure>[2]);
    })
    .command(exportCommand(ctx))
    .command(nightlyCommand(ctx))
    .command(monthEndCommand(ctx))
    .command(reportCommand(ctx))
    .command(demoCommand(ctx))
    .command(simCommand)
    .command(verifyCommand(ctx))
    .command(auditPackCommand(ctx))
    .command(deliverCommand(ctx))
    .command(dbCommand(ctx))
    .command(notifyCommand(ctx))
    .command(listenCommand(ctx))
    .command(webhooksCommand(ctx))
    .command(initCommand(ctx))
    .command(doctorCommand(ctx))
    .command(pricesCommand(ctx));
  try {
    // `payexport nonsens --help` must fail like `payexport nonsens` (exit 64, "Did you mean …?"), not
    // print the global help and exit 0: a typo in a scheduled command must never look like success.
    const helpless = unknownCommand(argv, registeredCommands(parser)) ? argv.filter((a) => a !== '--help' && a !== '-h') : argv;
    await parser.parseAsync(helpless);
    return ctx.exitCode;
  } catch (error) {
    const lines = (error instanceof Error ? error.message : String(error)).split('\n').map((line) => line.trim()).filter((line) => line !== '');
    // yargs spreads a usage error over lines ("Invalid values:" / "Argument: job, Given: …"): keep them all, on one line
    const text = (error instanceof AppError && (error.type === 'bad_usage' || error.type === 'unknown_option') ? lines.join(' ') : lines[0]) ?? '';
    const message = withHint(text, error instanceof AppError ? error.type : undefined);
    // a command of a group (`prices fetch`, `db migrate`) has help of its own
    const sub = GROUPS[argv[0] ?? '']?.includes(argv[1] ?? '') === true ? `${argv[1]} ` : '';
    const command = COMMANDS.has(argv[0] ?? '') ? `${argv[0]} ${sub}` : '';
    const hint = error instanceof AppError && error.exit === 'usage' ? ` (see \`payexport ${command}--help\`)` : '';
    // ONE line: cron mails and log collectors show it whole; the stack only on request.
    ctx.stderr.write(ctx.scrubber.scrub(`payexport: ${message}${hint}`) + '\n');
    if (argv.includes('--verbose') && error instanceof Error && error.stack) ctx.stderr.write(ctx.scrubber.scrub(error.stack) + '\n');
    return exitCodeOf(error);
  }
}

/** The names of the commands registered on the parser (new command modules count without a list to update). */
function registeredCommands(parser: ReturnType<typeof yargs>): Set<string> {
  // yargs keeps its registry behind getInternalMethods(); a command's first word is its name ('webhooks <action>')
  const internal = (parser as unknown as { getInternalMethods(): { getCommandInstance(): { getCommands(): string[] } } }).getInternalMethods();
  return new Set(internal.getCommandInstance().getCommands().map((c) => c.split(' ')[0] ?? c));
}

/** The first word is neither an option nor a registered command. */
function unknownCommand(argv: readonly string[], commands: ReadonlySet<string>): boolean {
  const first = argv[0];
  return first !== undefined && !first.startsWith('-') && !commands.has(first);
}

// before any command allocates or writes a workbook: the process's own settings, once (platform/start-up.ts says which and why)
applyStartUpSettings();
const context: CliContext = { env: process.env, cwd: process.cwd(), stdout: process.stdout, stderr: process.stderr, scrubber: new SecretScrubber(), clock: wallClockFrom(process.env), exitCode: ExitCode.ok };
process.exitCode = await main(hideBin(process.argv), context);
