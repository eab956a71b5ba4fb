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
