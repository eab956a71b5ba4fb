/**
 * Each file a secret is read from — an environment's apiKeyFile or bearerTokenFile,
 * PAYEXPORT_API_KEY_FILE, databaseUrlFile: readable by its owner only (the jobs refuse a wider
 * one), and out of git. A key file git would commit (`git add .` in a checkout that does not
 * ignore it) or has committed already is a ✗: a key in a history has to be rotated. The fix names
 * the cause; the API key line below depends on this one when the file cannot be read.
 */
import { resolve } from 'node:path';
import { secretFromEnv } from '../../../config/secrets.js';
import type { AppError } from '../../../util/errors.js';
import { gitTracking } from '../../git-tracking.js';
import { fail, pass, type CheckLine, type DoctorCheck, type DoctorContext } from '../check.js';
import { secretFileFix } from '../secret-fix.js';

interface SecretFile {
  /** as the config or the variable names it */
  shown: string;
  what: string;
  /** the ids its read problems are kept under (config/load.ts): one per environment or variable that names it */
  problemIds: string[];
}

/**
 * One line per file, however many name it: init writes the same key file into every environment
 * it sets up, and PAYEXPORT_API_KEY_FILE may name the config's own (issue 52: the line came twice).
 */
function oncePerFile(files: readonly SecretFile[], cwd: string): SecretFile[] {
  const byPath = new Map<string, SecretFile>();
  for (const file of files) {
    const path = resolve(cwd, file.shown);
    const seen = byPath.get(path);
    if (seen === undefined) byPath.set(path, { ...file, problemIds: [...file.problemIds] });
    else seen.problemIds.push(...file.problemIds);
  }
  return [...byPath.values()];
}

function secretFiles(ctx: DoctorContext): SecretFile[] {
  const { config } = ctx.loaded;
  const files: SecretFile[] = [];
  for (const e of config.environments) {
    if (e.apiKeyEnv !== undefined) continue;
    if (e.apiKeyFile !== undefined) files.push({ shown: e.apiKeyFile, what: 'the API key', problemIds: [e.id] });
    else if (e.bearerTokenEnv === undefined && e.bearerTokenFile !== undefined) files.push({ shown: e.bearerTokenFile, what: 'the bearer token', problemIds: [e.id] });
  }
  // the variable's file is read only when no key or token variable is set (config/load.ts)
  const fileVar = ctx.env.PAYEXPORT_API_KEY_FILE;
  if (fileVar !== undefined && fileVar !== '' && secretFromEnv(ctx.env, 'PAYEXPORT_API_KEY') === undefined && secretFromEnv(ctx.env, 'PAYEXPORT_BEARER_TOKEN') === undefined) {
    files.push({ shown: fileVar, what: 'the API key', problemIds: ['*'] });
  }
  if (config.databaseUrlFile !== undefined) files.push({ shown: config.databaseUrlFile, what: 'the database URL', problemIds: ['databaseUrl'] });
  return oncePerFile(files, ctx.cwd);
}

function lineOf(file: SecretFile, problem: AppError | undefined, cwd: string): CheckLine {
  const title = `key file ${file.shown}`;
  if (problem !== undefined) return fail(title, problem.message, secretFileFix(problem, file.what));
  const path = resolve(cwd, file.shown);
  const git = gitTracking(path);
  switch (git.kind) {
    case 'outside':
      return pass(title, 'only its owner can read it; outside any git checkout');
    case 'ignored':
      return pass(title, `only its owner can read it; git ignores it (${git.root})`);
    case 'untracked':
      return fail(title, `git would commit it: it is inside the checkout ${git.root} and nothing ignores it`, `add it to .gitignore (echo '/${path.split('/').pop() ?? ''}' >> '${path.replace(/\/[^/]*$/, '')}/.gitignore'), or move it out of the checkout (payexport init keeps keys in ~/.config/payexport)`);
    case 'tracked':
      return fail(title, `it is committed to git in ${git.root}: ${file.what} is in the history`, `rotate ${file.what} (revoke this one, write the new one into the file), then git rm --cached '${file.shown}' and add it to .gitignore`);
    case 'unknown':
      return fail(title, `it is inside the checkout ${git.root}, and git is not installed here to say whether it is ignored`, `move it out of the checkout (payexport init keeps keys in ~/.config/payexport), or check with git check-ignore on a machine that has git`);
  }
}

export const keyFilesCheck: DoctorCheck = {
  id: 'key-files',
  async run(ctx) {
    const files = secretFiles(ctx);
    if (files.length === 0) return [pass('key files', 'none: every secret comes from a variable')];
    const problems = ctx.loaded.secrets.problems;
    return files.map((file) => lineOf(file, file.problemIds.map((id) => problems?.get(id)).find((p) => p !== undefined), ctx.cwd));
  },
};
