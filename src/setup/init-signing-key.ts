/**
 * `init`'s signing key (docs/audit.md#the-signing-key): the installation's Ed25519 key, made by
 * init so that the first run's folder is signed by a key whose public half the controller could
 * hand over before it. Kept like the API key (key-location.ts): in the user's configuration folder
 * or where PAYEXPORT_SIGNING_KEY_FILE says, mode 600, ignored by git when git would commit it
 * (a home folder inside a checkout) — and only its place and id are ever printed. A key already
 * there is kept, `--force` included: replacing it is a rotation, a step of its own.
 */
import { dirname } from 'node:path';
import { loadSigningKey, obtainSigningKey, signingKeyPath } from '../audit/signing-key.js';
import type { Env } from '../config/load.js';
import { ensureFolderSync } from '../util/ensure-folder.js';
import { usageError } from '../util/errors.js';
import { gitTracking, ignoreInGit } from './git-tracking.js';

/**
 * Before anything is written: the key at its place is usable, or there is none yet (a key others
 * can read or that is not a key is exit 78, as a run would say; one committed to git is refused).
 * Returns that place.
 */
export function checkSigningKeyPlace(env: Env, cwd: string): string {
  const path = signingKeyPath(env, cwd);
  if (loadSigningKey(path) === null) return path;
  const git = gitTracking(path);
  if (git.kind === 'tracked') throw usageError('signing_key_tracked', `the signing key ${path} is committed to git in ${git.root}: retire it (move it aside, docs/audit.md#the-signing-key), git rm --cached it, and run init again`);
  return path;
}

/** The key at `path`, created when there is none; the lines init prints about it. */
export function ensureSigningKey(path: string): string[] {
  ensureFolderSync(dirname(path), 0o700);
  const git = gitTracking(path);
  // a file git would commit is ignored BEFORE it holds the key
  const gitignore = git.kind === 'untracked' || git.kind === 'unknown' ? ignoreInGit(path) : null;
  const key = obtainSigningKey(path);
  const how = key.created ? 'created now (Ed25519, mode 600)' : 'kept (made by an earlier run or init)';
  return [
    `Signing key ${key.keyId}: ${path}, ${how}${gitignore === null ? '' : `; ${gitignore} now keeps it out of git`}. Every report folder's manifest is signed with it; it is never logged or delivered.`,
    `  Its public half is what an auditor checks the signatures with: payexport doctor prints it, to hand over by another channel than the books (docs/audit.md#the-signing-key).`,
  ];
}
