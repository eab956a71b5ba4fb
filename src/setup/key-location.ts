/**
 * Where `init` saves a key typed at the terminal: by default outside any checkout, in the user's
 * configuration folder (`$XDG_CONFIG_HOME/payexport/`, else `~/.config/payexport/`; folder 0700,
 * file 0600), named for the organization — never `config/` of the checkout, where `git add .`
 * would commit it. A `--key-file` the person names is written where they say; when that place
 * (or a home folder that happens to sit in a checkout) is one git would commit, a `.gitignore`
 * entry is written with it (git-tracking.ts).
 */
import { chmodSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import type { Env } from '../config/load.js';
import { ensureFolderSync } from '../util/ensure-folder.js';
import { usageError } from '../util/errors.js';
import { gitTracking, ignoreInGit } from './git-tracking.js';

/** The user's configuration folder for payexport. */
export function userConfigDir(env: Env): string {
  const xdg = env.XDG_CONFIG_HOME;
  const home = env.HOME !== undefined && env.HOME !== '' ? env.HOME : homedir();
  return join(xdg !== undefined && isAbsolute(xdg) ? xdg : join(home, '.config'), 'payexport');
}

/** The default key file of an organization: `<user config dir>/org-<first 8 of its id>.api-key`. */
export function defaultKeyFile(env: Env, organizationId: string): string {
  return join(userConfigDir(env), `org-${organizationId.slice(0, 8)}.api-key`);
}

export interface SavedKey {
  /** the .gitignore that now names the file, when one had to be written */
  gitignore: string | null;
}

/**
 * Writes the key file (0600, also when it existed wider), its folder made 0700 when payexport
 * owns it (the user config folder's `payexport/`), and ignored by git when git would commit it.
 */
export function saveKeyFile(path: string, key: string, env: Env, cwd: string): SavedKey {
  const target = resolve(cwd, path);
  const folder = dirname(target);
  ensureFolderSync(folder, 0o700);
  if (folder === userConfigDir(env)) chmodSync(folder, 0o700);
  const tracking = gitTracking(target);
  if (tracking.kind === 'tracked') throw usageError('key_file_tracked', `${path} is committed to git in ${tracking.root}: the key would go into its history; choose another --key-file (the default is outside the checkout)`);
  // a file git would commit is ignored BEFORE it holds the key
  const gitignore = tracking.kind === 'untracked' || tracking.kind === 'unknown' ? ignoreInGit(target) : null;
  writeFileSync(target, `${key}\n`, { mode: 0o600 });
  chmodSync(target, 0o600);
  return { gitignore };
}
