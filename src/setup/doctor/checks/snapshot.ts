/**
 * The snapshot: reachable, its schema at the version this payexport's migrations end with, and
 * the run locks of the organization's jobs free (a lock held means tonight's run would exit 75).
 * Nothing is created or migrated: an embedded folder that does not exist yet, or a database
 * without the schema, is what a first run starts from, and passes — once the folder (where the
 * engine, its lock file and the run locks live) is shown to be creatable and writable: a probe
 * made and taken back, so a parent the run cannot write is a ✗ tonight, not an exit 74 at the
 * lock file.
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { redactDatabaseUrl } from '../../../config/secrets.js';
import type { Db } from '../../../store/db/db.js';
import { loadMigrations } from '../../../store/db/migrate.js';
import { openDb } from '../../../store/db/open-db.js';
import { storeSchema, type StoreSchema } from '../../../store/db/schema.js';
import { acquireRunLock } from '../../../store/sql/run-lock.js';
import { AppError } from '../../../util/errors.js';
import { folderFault } from '../../writable-folder.js';
import { fail, pass, skip, type CheckLine, type DoctorCheck } from '../check.js';
import { folderFix } from '../folder-fix.js';
import { postgresFix } from '../snapshot-fix.js';

const REACHABLE = 'snapshot reachable';
const VERSION = 'snapshot schema version';
const LOCKS = 'run locks free';
/** the jobs that take a run lock per organization (store/sql/run-lock.ts) */
const LOCKED_JOBS = ['nightly', 'month-end', 'export'] as const;

async function schemaLine(db: Db, schema: StoreSchema, configHint: string): Promise<CheckLine> {
  const current = loadMigrations().at(-1)?.version ?? 0;
  const { rows: [present] } = await db.query<{ present: boolean }>('SELECT to_regclass($1) IS NOT NULL AS present', [schema.table('schema_migrations')]);
  if (!present?.present) return pass(VERSION, `schema ${schema.name} is not created yet: the first run creates it at version ${current}`);
  const { rows: [row] } = await db.query<{ version: number | null }>(`SELECT max(version)::int AS version FROM ${schema.table('schema_migrations')}`);
  const version = row?.version ?? 0;
  if (version < current) return fail(VERSION, `schema ${schema.name} is at version ${version}, this payexport's is ${current}`, `payexport db migrate${configHint} (a role without CREATE rights cannot let the run do it)`);
  if (version > current) return fail(VERSION, `schema ${schema.name} is at version ${version}, newer than this payexport's ${current}`, 'upgrade payexport to the version that wrote it');
  return pass(VERSION, `schema ${schema.name} at version ${version}, current`);
}

async function locksLine(db: Db, schema: StoreSchema, organizationId: string | undefined): Promise<CheckLine> {
  if (organizationId === undefined) return skip(LOCKS, 'no organization configured');
  for (const job of LOCKED_JOBS) {
    try {
      const lock = await acquireRunLock(db, schema, organizationId, job);
      await lock.release();
    } catch (error) {
      if (error instanceof AppError && error.type === 'lock_held') {
        return fail(LOCKS, error.message, 'wait for that run to end; if no payexport is running, the holder died: a Postgres session lock ends with its session, an embedded lock file names its pid');
      }
      throw error;
    }
  }
  return pass(LOCKS, `${LOCKED_JOBS.join(', ')}: none held`);
}

export const snapshotCheck: DoctorCheck = {
  id: 'snapshot',
  async run(ctx) {
    const { config, secrets, configFile } = ctx.loaded;
    if (!config.db) return [pass(REACHABLE, 'no snapshot database (db: false): checkpoints live in a state file under the output root')];
    const configHint = configFile === undefined ? '' : ` --config ${configFile}`;
    const schema = storeSchema(config.dbSchema);
    const urlProblem = secrets.problems?.get('databaseUrl');
    // the file's own line (key-files.ts) says why and how to fix it: these depend on it
    if (urlProblem !== undefined) return [skip(REACHABLE, `not checked: the database URL file ${config.databaseUrlFile ?? ''} cannot be read (its line above says why)`), skip(VERSION, 'needs the database URL'), skip(LOCKS, 'needs the database URL')];
    const url = secrets.databaseUrl;
    const dataDir = resolve(ctx.cwd, config.dataDir);
    const target = url === undefined ? `the embedded database under ${config.dataDir}` : `Postgres ${redactDatabaseUrl(url)}`;
    if (url === undefined) {
      const fault = await folderFault(dataDir, { keepCreated: false });
      if (fault !== null) {
        const line = fail(REACHABLE, `${target}: the folder for the database and its lock files ${fault.message.replace(/^cannot write in \S+ /, 'cannot be written ')}`, folderFix(fault, config.dataDir, 'dataDir'));
        return [line, skip(VERSION, 'needs the database folder'), skip(LOCKS, 'needs the database folder')];
      }
    }
    // the engine's own files live in <dataDir>/pgdata (store/db/pglite-db.ts): without them there is nothing to open, and opening would create them
    if (url === undefined && !existsSync(join(dataDir, 'pgdata'))) {
      return [pass(REACHABLE, `${target} does not exist yet: the first run creates it`), pass(VERSION, 'created by the first run'), pass(LOCKS, 'no run has started')];
    }
    let db: Db;
    try {
      db = await openDb(url === undefined ? { dataDir } : { databaseUrl: url });
      await db.query('SELECT 1');
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      if (error instanceof AppError && error.type === 'lock_held') {
        // the embedded engine admits one process: a run in progress holds the whole folder
        return [pass(REACHABLE, `${target} exists`), skip(VERSION, 'the database is in use'), fail(LOCKS, message, 'wait for that run to end; if none is running, its process died: the lock file names its pid')];
      }
      const fix = url === undefined ? `check the folder ${config.dataDir} (a copy from another payexport version?)` : postgresFix(error, url);
      return [fail(REACHABLE, `${target}: ${message}`, fix), skip(VERSION, 'the snapshot is unreachable'), skip(LOCKS, 'the snapshot is unreachable')];
    }
    try {
      return [pass(REACHABLE, target), await schemaLine(db, schema, configHint), await locksLine(db, schema, config.organization)];
    } finally {
      await db.close().catch(() => undefined);
    }
  },
};
