/**
 * The fix for a secret that cannot be read (config/secrets.ts, config/load.ts), by its cause: a
 * key file others can read is fixed by chmod, a missing one by writing it, a variable that is not
 * set by setting it where the scheduler runs — never "fix the config file", which is right.
 */
import { AppError } from '../../util/errors.js';

export function secretFileFix(error: AppError, what: string): string {
  const path = typeof error.details?.['path'] === 'string' ? error.details['path'] : undefined;
  const variable = typeof error.details?.['variable'] === 'string' ? error.details['variable'] : undefined;
  switch (error.type) {
    case 'secret_file_permissions':
      return `chmod 600 '${path ?? '<the file>'}' (only its owner may read ${what})`;
    case 'secret_file_missing':
      return `write ${what} into ${path ?? 'the file the config names'} (mode 600), or point the config at the file that holds it; payexport init saves a typed key`;
    case 'secret_empty':
      return `write ${what} into ${path ?? 'the file'}: it is empty`;
    case 'missing_credentials':
      return `set ${variable ?? 'the variable the config names'} in the environment the scheduler runs with (or name a key file with apiKeyFile)`;
    default:
      return `see the message; ${what} is named in the config file`;
  }
}

/** An AppError from a secret read, or null for anything else. */
export function secretProblem(error: unknown): AppError | null {
  return error instanceof AppError && ['secret_file_permissions', 'secret_file_missing', 'secret_empty', 'missing_credentials'].includes(error.type) ? error : null;
}
