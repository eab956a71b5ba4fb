/**
 * The fix for a configuration that does not load, by its cause (config/load.ts's error types): a
 * file that is not there is not fixed by editing it, nor a stray key by rewriting the file. Every
 * other check reads the loaded configuration, so they wait for this one.
 */
import { AppError } from '../../util/errors.js';

export function configFix(error: unknown, configShown: string | undefined): string {
  const file = configShown ?? 'the config file';
  const type = error instanceof AppError ? error.type : '';
  switch (type) {
    case 'config_file_unreadable':
      return `check the path given to --config (or PAYEXPORT_CONFIG): ${file} cannot be read; without either, payexport reads config/payexport.json in the current folder, which payexport init writes`;
    case 'config_file_invalid':
      return `fix the JSON of ${file} where the message points (a missing comma, quote or brace)`;
    case 'config_unknown_key':
      return `remove or rename the key named above in ${file} (every key: config/README.md)`;
    case 'config_invalid':
      return `correct the value named above in ${file} (every key and its values: config/README.md)`;
    case 'secret_in_config':
      return `take the secret out of ${file} and name where it is instead: apiKeyEnv or apiKeyFile for a key, DATABASE_URL or databaseUrlFile for a database password`;
    case 'environment_mismatch':
      return `make each environment's kind match its base URL: staging keys belong to https://staging.voltageapi.com/v1, production keys to https://voltageapi.com/v1`;
    case 'insecure_base_url':
      return 'use the https:// base URL: the key must not travel in clear text';
    case 'bad_option':
      return 'correct the option named above on the command line';
    default:
      return configShown === undefined ? 'run payexport init (it writes config/payexport.json, which every command finds in the current folder), or name a config file with --config' : `fix ${file} (every key: config/README.md), or write a new one with payexport init`;
  }
}
