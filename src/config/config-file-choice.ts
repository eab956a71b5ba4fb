/**
 * Which config file a command reads — the same answer for every command (docs/contracts.md#common-options):
 * `--config`, else `PAYEXPORT_CONFIG`, else `config/payexport.json` under the current folder (what
 * `init` writes), else none (defaults and environment). A file named by a flag or the variable must
 * be readable; the default one is read only when it is there. Every command says which it read.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';

/** Where `init` writes the configuration, and where every command looks when none is named. */
export const DEFAULT_CONFIG_PATH = 'config/payexport.json';

export type ConfigOrigin = 'flag' | 'env' | 'found';

export interface ConfigFileChoice {
  /** as given (or the default's relative path): shown to the user, resolved against the cwd */
  path: string;
  origin: ConfigOrigin;
}

export function chooseConfigFile(flag: string | undefined, env: Readonly<Record<string, string | undefined>>, cwd: string): ConfigFileChoice | null {
  if (flag !== undefined) return { path: flag, origin: 'flag' };
  const named = env.PAYEXPORT_CONFIG;
  if (named !== undefined && named !== '') return { path: named, origin: 'env' };
  return existsSync(resolve(cwd, DEFAULT_CONFIG_PATH)) ? { path: DEFAULT_CONFIG_PATH, origin: 'found' } : null;
}

/** The file `init` writes: where the jobs will look for it (a PAYEXPORT_CONFIG in force would otherwise hide it). */
export function configFileToWrite(flag: string | undefined, env: Readonly<Record<string, string | undefined>>): string {
  const named = env.PAYEXPORT_CONFIG;
  return flag ?? (named !== undefined && named !== '' ? named : DEFAULT_CONFIG_PATH);
}

const HOW: Readonly<Record<ConfigOrigin, string>> = {
  flag: '--config',
  env: 'PAYEXPORT_CONFIG',
  found: 'found in the current folder',
};

/** One line: the file read and how it was chosen, or that there is none. */
export function configFileLine(choice: ConfigFileChoice | null): string {
  if (choice === null) return `config: no file (no --config, no PAYEXPORT_CONFIG, no ${DEFAULT_CONFIG_PATH} in the current folder): defaults and environment`;
  return `config: ${choice.path} (${HOW[choice.origin]})`;
}
