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
