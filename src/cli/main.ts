#!/usr/bin/env node
import yargs from 'yargs';
import { hideBin } from 'yargs/helpers';
import { AppError, exitCodeOf } from '../util/errors.js';
import { ExitCode } from '../util/exit-codes.js';
import { simCommand } from './commands/sim.js';

/**
 * payexport's entry point: a registry of command modules (src/cli/commands/*), nothing else.
 * Each command parses its flags, calls one job and returns; errors map to exit codes here.
 */
const COMMANDS = [simCommand] as const;

async function main(argv: string[]): Promise<number> {
  let parser = yargs(argv)
    .scriptName('payexport')
    .usage('$0 <command> [options]')
    .strict()
    .demandCommand(1, 'Name a command.')
    .recommendCommands()
    .help()
    .version()
    .fail((message, error) => {
      throw error ?? new AppError('usage', 'bad_usage', message);
    });
  for (const command of COMMANDS) parser = parser.command(command);
  try {
    await parser.parseAsync();
    return ExitCode.ok;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`payexport: ${message}\n`);
    if (error instanceof AppError && error.exit === 'usage') process.stderr.write('Run `payexport --help` for usage.\n');
    return exitCodeOf(error);
  }
}

process.exitCode = await main(hideBin(process.argv));
