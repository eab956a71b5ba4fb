/**
 * `mkdir -p` that always ends. Node's own `mkdir(path, { recursive: true })` (async and sync; seen on Node
 * 20.20) retries for ever when a level answers ENOENT although its parent exists — procfs
 * does exactly that (`/proc/x`: mkdir → ENOENT, mkdir /proc → EEXIST, again…): the call never
 * returns, burns a core, and the run cannot even be stopped by SIGTERM. Here the walk goes up
 * once to the nearest existing ancestor, then creates each missing level once, top down; any
 * error on the way is final and carries the path that failed. Bounded by the path's depth.
 */
import { mkdirSync, statSync } from 'node:fs';
import { mkdir, stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';

function errnoCode(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | null)?.code;
}

function notAFolder(path: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`ENOTDIR: not a directory, mkdir '${path}'`), { code: 'ENOTDIR', syscall: 'mkdir', path });
}

/** true: a folder; false: something else; null: nothing there. Other stat errors are thrown. */
async function probe(path: string): Promise<boolean | null> {
  try {
    return (await stat(path)).isDirectory();
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return null;
    throw error;
  }
}

function probeSync(path: string): boolean | null {
  try {
    return statSync(path).isDirectory();
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return null;
    throw error;
  }
}

/** Creates `path` and its missing parents (mode for the new levels); throws the first failure, never loops. */
export async function ensureFolder(path: string, mode?: number): Promise<void> {
  // up to the nearest existing ancestor: at most one stat per level of the path
  const missing: string[] = [];
  for (let at = resolve(path); ; at = dirname(at)) {
    const folder = await probe(at);
    if (folder === true) break;
    if (folder === false) throw notAFolder(at);
    missing.unshift(at);
    if (dirname(at) === at) break;
  }
  // then down, one mkdir per missing level
  for (const level of missing) {
    try {
      await mkdir(level, mode === undefined ? {} : { mode });
    } catch (error) {
      // created meanwhile by another process: fine if it is a folder
      if (errnoCode(error) === 'EEXIST' && (await probe(level)) === true) continue;
      throw error;
    }
  }
}

/** The synchronous twin of ensureFolder, for code that writes synchronously (the spool). */
export function ensureFolderSync(path: string, mode?: number): void {
  const missing: string[] = [];
  for (let at = resolve(path); ; at = dirname(at)) {
    const folder = probeSync(at);
    if (folder === true) break;
    if (folder === false) throw notAFolder(at);
    missing.unshift(at);
    if (dirname(at) === at) break;
  }
  for (const level of missing) {
    try {
      mkdirSync(level, mode === undefined ? {} : { mode });
    } catch (error) {
      if (errnoCode(error) === 'EEXIST' && probeSync(level) === true) continue;
      throw error;
    }
  }
}
