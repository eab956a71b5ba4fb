/**
 * The snapshot answer of `init`: `embedded` (a folder the first run fills), `env` (Postgres at
 * DATABASE_URL, which the jobs read too) or a postgres:// URL without its password (a password
 * would land in the config file). Postgres is checked by connecting; the embedded folder by
 * writing in it.
 */
import { resolve } from 'node:path';
import type { Env } from '../config/load.js';
import { databaseUrlPassword, redactDatabaseUrl, secretFromEnv } from '../config/secrets.js';
import { openDb } from '../store/db/open-db.js';
import { AppError, usageError } from '../util/errors.js';
import type { SecretScrubber } from '../util/secret-scrubber.js';
import type { SnapshotAnswer } from './init-config.js';
import { folderFault } from './writable-folder.js';

/** `said` names the answer in a message: `--snapshot`, `the snapshot you typed`. */
export async function checkSnapshot(answer: string, dataDir: string, env: Env, cwd: string, scrubber: SecretScrubber, said = 'the snapshot'): Promise<SnapshotAnswer> {
  if (answer === 'embedded') {
    // checked and taken back: nothing is written before every answer has passed
    const fault = await folderFault(resolve(cwd, dataDir), { keepCreated: false });
    if (fault !== null) throw new AppError('cantCreate', 'data_dir_not_writable', `embedded database folder: ${fault.message}`);
    return { kind: 'embedded', dataDir };
  }
  let url: string;
  let snapshot: SnapshotAnswer;
  if (answer === 'env') {
    const fromEnv = secretFromEnv(env, 'DATABASE_URL');
    if (fromEnv === undefined) throw usageError('database_url_missing', `${said} is 'env', but DATABASE_URL is not set: set it, or answer 'embedded'`);
    url = fromEnv;
    snapshot = { kind: 'env' };
  } else if (/^postgres(ql)?:\/\//.test(answer)) {
    if (databaseUrlPassword(answer) !== undefined) {
      scrubber.add(databaseUrlPassword(answer));
      throw usageError('secret_in_config', `${said}: the URL holds a password, which would land in the config file: put the URL in DATABASE_URL and answer 'env'`);
    }
    url = answer;
    snapshot = { kind: 'url', url: answer };
  } else {
    throw usageError('bad_option', `${said} '${answer.slice(0, 40)}' is none of embedded, env or a postgres:// URL`);
  }
  const password = databaseUrlPassword(url);
  if (password !== undefined) scrubber.add(password);
  const db = await openDb({ databaseUrl: url });
  try {
    await db.query('SELECT 1');
  } finally {
    await db.close().catch(() => undefined);
  }
  return snapshot;
}

export function describeSnapshot(snapshot: SnapshotAnswer, env: Env): string {
  if (snapshot.kind === 'embedded') return `embedded database under ${snapshot.dataDir}/ (created by the first run)`;
  const url = snapshot.kind === 'env' ? (secretFromEnv(env, 'DATABASE_URL') ?? '') : snapshot.url;
  return `Postgres ${redactDatabaseUrl(url)} reached${snapshot.kind === 'env' ? ' (the jobs read DATABASE_URL)' : ''}`;
}

