import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { AppError } from '../../util/errors.js';
import { ensureFolder } from '../../util/ensure-folder.js';

/**
 * An exclusive lock file: created with O_EXCL, holding who took it. The embedded engine cannot
 * use advisory locks across processes (one PGlite instance per data folder), so its locks are
 * files. A holder that died without cleaning up (SIGKILL, power loss) leaves a stale file; it is
 * detected by pid on the same host and replaced.
 */
export interface LockHolder {
  pid: number;
  host: string;
  started_at: string;
  /** what the lock protects, e.g. `embedded database`, `nightly run of <org>` */
  purpose: string;
}

export interface FileLock {
  readonly path: string;
  readonly holder: LockHolder;
  release(): Promise<void>;
}

/** Lock paths held by this process: a recorded pid equal to ours but absent here is a previous process's. */
const heldHere = new Set<string>();

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function parseHolder(text: string): LockHolder | null {
  try {
    const value = JSON.parse(text) as Partial<LockHolder>;
    if (typeof value.pid === 'number' && typeof value.host === 'string' && typeof value.started_at === 'string') {
      return { pid: value.pid, host: value.host, started_at: value.started_at, purpose: String(value.purpose ?? '') };
    }
  } catch {
    // fall through: a file cut short by a crash between create and write
  }
  return null;
}

/** A file left by a crash before its content was written is stale once this old. */
const UNREADABLE_STALE_MS = 5_000;

async function isStale(file: string, holder: LockHolder | null): Promise<boolean> {
  if (holder === null) {
    const stat = await fs.stat(file).catch(() => null);
    return stat !== null && Date.now() - stat.mtimeMs > UNREADABLE_STALE_MS;
  }
  if (holder.host !== os.hostname()) return false; // another machine's pid means nothing here
  if (holder.pid === process.pid) return !heldHere.has(file);
  return !isAlive(holder.pid);
}

/**
 * Removes a stale lock without racing another remover: rename it aside (atomic, one winner),
 * then check the moved file is the stale one we judged; if a live lock slipped in, put it back.
 */
async function removeStale(file: string, staleText: string): Promise<void> {
  const aside = `${file}.stale-${process.pid}-${Date.now()}`;
  try {
    await fs.rename(file, aside);
  } catch {
    return;
  }
  const moved = await fs.readFile(aside, 'utf8').catch(() => null);
  if (moved === staleText) {
    await fs.rm(aside, { force: true });
    return;
  }
  await fs.link(aside, file).catch(() => undefined);
  await fs.rm(aside, { force: true });
}

export type HeldMessage = (holder: LockHolder | null) => string;

/**
 * Takes the lock or throws AppError `lock_held` (exit 75) with `heldMessage(holder)`.
 * Never waits: a second run must fail fast and let cron retry.
 */
export async function acquireFileLock(file: string, purpose: string, heldMessage: HeldMessage): Promise<FileLock> {
  try {
    await ensureFolder(path.dirname(file));
  } catch (error) {
    // a data folder or spool under /proc, a file, a read-only mount: the disk refuses, exit 74
    const { code = 'unknown', syscall = 'mkdir', path: failed = path.dirname(file) } = error as NodeJS.ErrnoException;
    throw new AppError('cantCreate', 'lock_folder_unwritable', `cannot create the folder of the lock file '${file}' (${code}): ${syscall} '${failed}' failed`, { cause: error });
  }
  const holder: LockHolder = { pid: process.pid, host: os.hostname(), started_at: new Date().toISOString(), purpose };
  for (let attempt = 0; attempt < 3; attempt++) {
    let handle: fs.FileHandle;
    try {
      handle = await fs.open(file, 'wx', 0o600);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const text = await fs.readFile(file, 'utf8').catch(() => null);
      if (text === null) continue; // released meanwhile
      const current = parseHolder(text);
      if (await isStale(file, current)) {
        await removeStale(file, text);
        continue;
      }
      throw new AppError('tempFail', 'lock_held', heldMessage(current), { details: { lock_file: file, holder: current } });
    }
    try {
      await handle.writeFile(JSON.stringify(holder) + '\n');
      await handle.sync();
    } finally {
      await handle.close();
    }
    heldHere.add(file);
    let released = false;
    return {
      path: file,
      holder,
      async release(): Promise<void> {
        if (released) return;
        released = true;
        heldHere.delete(file);
        await fs.rm(file, { force: true });
      },
    };
  }
  throw new AppError('tempFail', 'lock_held', heldMessage(null), { details: { lock_file: file } });
}

/** `pid 123 on host x since 2026-…` for messages. */
export function describeHolder(holder: LockHolder | null): string {
  return holder === null ? 'an unknown process' : `pid ${holder.pid} on ${holder.host} since ${holder.started_at}`;
}
