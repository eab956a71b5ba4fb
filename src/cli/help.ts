/**
 * Help text the commands share. Each command's `--help` ends with its own exit codes
 * (command-exit-codes.ts); `payexport --help` ends with the whole table (docs/contracts.md#exit-codes).
 */
import { EXIT_CODE_MEANINGS } from '../util/exit-codes.js';

/** Every code payexport can return: the end of `payexport --help`. */
export const ALL_EXIT_CODES_EPILOG = `Exit codes (each command's --help lists its own):\n${Object.entries(EXIT_CODE_MEANINGS)
  .map(([code, meaning]) => `  ${code.padStart(3)}  ${meaning}`)
  .join('\n')}`;

export const SECRETS_EPILOG = 'Secrets come from the environment (or files it names) only: PAYEXPORT_API_KEY or PAYEXPORT_BEARER_TOKEN, DATABASE_URL.';

/**
 * Examples as an epilog block: a command on its own line, its purpose indented below, so a narrow
 * terminal never breaks a command in the middle (yargs' two-column examples do).
 */
export function examplesEpilog(examples: ReadonlyArray<readonly [string, string]>): string {
  return ['Examples:', ...examples.flatMap(([command, what]) => [`  ${command}`, `      ${what}`])].join('\n');
}

/**
 * The width yargs wraps help to: the terminal's (at most 120) when this run prints help, else none.
 * yargs renders a command's whole help, wrapped, as the command starts, in case a failure shows it;
 * our `.fail()` throws instead, so that rendering is only ever read with `--help`. Wrapping is most of
 * its cost (docs/benchmarks.md, "The CLI's start"), paid by every scheduled run for nothing.
 */
export function helpWidth(argv: readonly string[], columns: number | undefined): number | null {
  const end = argv.indexOf('--');
  const options = end === -1 ? argv : argv.slice(0, end);
  return options.includes('--help') || options.includes('-h') ? Math.min(120, columns ?? 100) : null;
}
