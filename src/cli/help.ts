/**
 * Help text every command shares: the exit-code table (docs/contracts.md#exit-codes), so a
 * scheduler author finds it in `payexport <command> --help`, not only in the README.
 */
import { EXIT_CODE_MEANINGS } from '../util/exit-codes.js';

export const EXIT_CODES_EPILOG = `Exit codes:\n${Object.entries(EXIT_CODE_MEANINGS)
  .map(([code, meaning]) => `  ${code.padStart(2)}  ${meaning}`)
  .join('\n')}`;

export const SECRETS_EPILOG = 'Secrets come from the environment (or files it names) only: PAYEXPORT_API_KEY or PAYEXPORT_BEARER_TOKEN, DATABASE_URL.';

export const JOB_EPILOG = `${EXIT_CODES_EPILOG}\n\n${SECRETS_EPILOG}`;

/** verify's own exit codes (it pulls nothing and closes nothing: the job table does not apply). */
export const VERIFY_EXIT_EPILOG = [
  'Exit codes:',
  '   0  every file matches the manifest (sha256, bytes, rows)',
  '  65  a file differs, is missing, or the folder has no readable manifest.json (each problem on stdout as MISMATCH ...)',
  '  64  bad command-line usage',
  '   1  internal error (a bug)',
].join('\n');

/**
 * Examples as an epilog block: a command on its own line, its purpose indented below, so a narrow
 * terminal never breaks a command in the middle (yargs' two-column examples do).
 */
export function examplesEpilog(examples: ReadonlyArray<readonly [string, string]>): string {
  return ['Examples:', ...examples.flatMap(([command, what]) => [`  ${command}`, `      ${what}`])].join('\n');
}
