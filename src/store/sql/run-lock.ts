import { createHash } from 'node:crypto';
import path from 'node:path';
import { AppError } from '../../util/errors.js';
import type { Db } from '../db/db.js';
import { acquireFileLock, describeHolder } from '../db/lock-file.js';
import { newestRunningRun } from './runs.js';
import type { StoreSchema } from '../db/schema.js';

/**
 * One run at a time per (organization, job): a second cron invocation exits 75 at once, naming
 * the run that holds the lock, instead of double-writing or waiting.
 *
 * - Real server: a session-level `pg_try_advisory_lock` on a connection of its own. A killed
 *   holder's session ends and the server frees the lock (docs/reliability.md#run-locks: session locks
 *   never go stale; taken before any work; incompatible with PgBouncer transaction pooling).
 * - Embedded engine: a lock file in the data folder (../db/lock-file.ts), stale-pid aware.
 */
export interface RunLock {
  readonly organization_id: string;
  readonly job: string;
  release(): Promise<void>;
}

/** One key per schema, organization and job: two schemas (or tests) never block each other. */
function lockKey(schema: StoreSchema, organizationId: string, job: string): string {
  return JSON.stringify(['payexport-run', schema.name, organizationId, job]);
}

async function heldError(db: Db, schema: StoreSchema, organizationId: string, job: string, fallback: string, details: Record<string, unknown>): Promise<AppError> {
  const holder = await newestRunningRun(db, schema, organizationId, job).catch(() => null);
  const who = holder === null ? fallback : `run ${holder.run_id}, started ${holder.started_at}`;
  return new AppError('tempFail', 'lock_held', `another ${job} run for organization ${organizationId} is in progress (${who}); try again later`, {
    details: { ...details, organization_id: organizationId, job, holder_run: holder },
  });
}

/** In-memory embedded engines: the lock lives as long as the Db object. */
const memoryLocks = new WeakMap<Db, Set<string>>();

export async function acquireRunLock(db: Db, schema: StoreSchema, organizationId: string, job: string): Promise<RunLock> {
  const key = lockKey(schema, organizationId, job);
  if (db.openSession) {
    const session = await db.openSession();
    let locked = false;
    try {
      const { rows } = await session.query<{ locked: boolean }>('SELECT pg_try_advisory_lock(hashtextextended($1, 0)) AS locked', [key]);
      locked = rows[0]?.locked === true;
    } finally {
      if (!locked) await session.close().catch(() => undefined);
    }
    if (!locked) throw await heldError(db, schema, organizationId, job, 'another session holds its advisory lock', {});
    let released = false;
    return {
      organization_id: organizationId,
      job,
      async release(): Promise<void> {
        if (released) return;
        released = true;
        try {
          await session.query('SELECT pg_advisory_unlock(hashtextextended($1, 0))', [key]);
        } finally {
          // Ending the session frees the lock even if the unlock itself failed.
          await session.close().catch(() => undefined);
        }
      },
    };
  }

  if (db.dataDir === undefined || db.dataDir === null) {
    const held = memoryLocks.get(db) ?? new Set<string>();
    memoryLocks.set(db, held);
    if (held.has(key)) throw await heldError(db, schema, organizationId, job, 'held in this process', {});
    held.add(key);
    return { organization_id: organizationId, job, release: async () => void held.delete(key) };
  }

  const file = path.join(db.dataDir, 'locks', `${createHash('sha256').update(key).digest('hex').slice(0, 32)}.lock`);
  try {
    const lock = await acquireFileLock(file, `${job} run of organization ${organizationId}`, describeHolder);
    return { organization_id: organizationId, job, release: () => lock.release() };
  } catch (error) {
    if (error instanceof AppError && error.type === 'lock_held') {
      throw await heldError(db, schema, organizationId, job, error.message, error.details ?? {});
    }
    throw error;
  }
}
