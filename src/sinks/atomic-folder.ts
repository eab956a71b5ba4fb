/**
 * Atomic publication of a folder (docs/reliability.md#atomic-publication): files are written into a temporary
 * sibling in the same parent, flushed, then the folder is renamed into place and the parent is
 * fsynced. Readers see the previous complete folder or the new one, never a partial one.
 *
 * A temp folder carries an `.owner` file (pid, host). A run that was killed leaves its temp folder
 * behind; the next run removes temp folders whose owner is gone (and, for replaced folders, puts
 * back an old version whose swap was interrupted). Folders of a live process, or of another host,
 * are left alone.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { lstat, open, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DIR_MODE, FILE_MODE } from './output-file.js';
import { OLD_MARK, oldName, TEMP_MARK } from './folder-paths.js';
import { faultPoint } from '../util/fault-points.js';
import { ensureFolder } from '../util/ensure-folder.js';

const OWNER_FILE = '.owner';
/** A temp folder without an owner file is stale only after this long (its creator may be writing it). */
const OWNERLESS_GRACE_MS = 60_000;

interface Owner {
  pid: number;
  host: string;
}

export async function fsyncPath(path: string): Promise<void> {
  const handle = await open(path, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function readOwner(dir: string): Promise<Owner | null> {
  try {
    const owner = JSON.parse(await readFile(join(dir, OWNER_FILE), 'utf8')) as Partial<Owner>;
    return typeof owner.pid === 'number' && typeof owner.host === 'string' ? { pid: owner.pid, host: owner.host } : null;
  } catch {
    return null;
  }
}

async function isStale(dir: string, now: number): Promise<boolean> {
  const owner = await readOwner(dir);
  if (owner === null) {
    const info = await stat(dir).catch(() => null);
    return info !== null && now - info.mtimeMs > OWNERLESS_GRACE_MS;
  }
  if (owner.host !== hostname()) return false;
  return owner.pid !== process.pid && !processAlive(owner.pid);
}

export interface CleanupReport {
  removed: string[];
  restored: string[];
}

/** Removes stale temp folders in `parent` and restores interrupted swaps (see file comment). */
export async function cleanStaleFolders(parent: string, now: number = Date.now()): Promise<CleanupReport> {
  const report: CleanupReport = { removed: [], restored: [] };
  let entries: string[];
  try {
    entries = await readdir(parent);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return report;
    throw error;
  }
  for (const entry of entries) {
    if (!entry.startsWith('.')) continue;
    const path = join(parent, entry);
    const tempAt = entry.indexOf(TEMP_MARK);
    const oldAt = entry.indexOf(OLD_MARK);
    if (tempAt > 0 && (await isStale(path, now))) {
      await rm(path, { recursive: true, force: true });
      report.removed.push(entry);
    } else if (oldAt > 0 && (await isStale(path, now))) {
      const finalName = entry.slice(1, oldAt);
      const finalPath = join(parent, finalName);
      const finalExists = await stat(finalPath).then(() => true, () => false);
      if (finalExists) {
        await rm(path, { recursive: true, force: true });
        report.removed.push(entry);
      } else {
        await rm(join(path, OWNER_FILE), { force: true });
        await rename(path, finalPath);
        report.restored.push(finalName);
      }
    }
  }
  return report;
}

/** Creates `parent/tempName` (and `parent`), marked with this process as owner. */
export async function createTempFolder(parent: string, tempName: string): Promise<string> {
  await ensureFolder(parent, DIR_MODE);
  const dir = join(parent, tempName);
  // In one synchronous step: the report starts beside the pull, and a kill the pull's fault points
  // (or its work) land between an awaited mkdir and the owner mark would leave an ownerless folder
  // the next run must keep for the grace period.
  mkdirSync(dir, { mode: DIR_MODE });
  writeFileSync(join(dir, OWNER_FILE), JSON.stringify({ pid: process.pid, host: hostname() } satisfies Owner), { mode: FILE_MODE });
  return dir;
}

/**
 * Renames the finished temp folder to `parent/finalName`. With `replace`, an existing folder of
 * that name is first moved aside (to `.<name>.old-<runId>`, owned by this process) and removed
 * after the swap; without it, an existing target is an error.
 */
export async function publishFolder(tempDir: string, parent: string, finalName: string, options: { replace: boolean; runId: string }): Promise<string> {
  const finalPath = join(parent, finalName);
  faultPoint('report:publish', { folder: finalName });
  const exists = await lstat(finalPath).then((s) => {
    // a link planted at the period's folder is not our folder: setting it aside and marking it would write where it points (SEC-09)
    if (s.isSymbolicLink()) throw Object.assign(new Error(`${finalPath} is a symbolic link; refusing to follow it`), { code: 'ELOOP', path: finalPath });
    return true;
  }, () => false);
  let aside: string | null = null;
  if (exists) {
    if (!options.replace) throw Object.assign(new Error(`${finalPath} already exists`), { code: 'EEXIST' });
    aside = join(parent, oldName(finalName, options.runId));
    await rename(finalPath, aside);
    await writeFile(join(aside, OWNER_FILE), JSON.stringify({ pid: process.pid, host: hostname() } satisfies Owner), { mode: FILE_MODE });
    // the one moment the period has no folder: a kill here is undone by the next run's cleanup
    faultPoint('report:swap', { folder: finalName });
  }
  // The owner mark goes last: a run killed while setting the old folder aside leaves a temp folder
  // the next run can tell is dead (an ownerless one would linger for the grace period).
  await rm(join(tempDir, OWNER_FILE), { force: true });
  await fsyncPath(tempDir);
  await rename(tempDir, finalPath);
  await fsyncPath(parent);
  // the folder is in place and durable, the run not yet over: a kill here leaves the close made (docs/audit.md)
  faultPoint('report:published', { folder: finalName });
  if (aside !== null) {
    await rm(aside, { recursive: true, force: true });
    await fsyncPath(parent);
  }
  return finalPath;
}
