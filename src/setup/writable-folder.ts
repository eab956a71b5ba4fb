/**
 * Whether a folder can take a run's files: created if missing (as a run would), then a probe file
 * written and removed — the only test that also holds for root, read-only mounts and full disks,
 * where permission bits alone would say yes. `doctor` and `init` take back the levels they had to
 * create, so a check leaves nothing behind (a run creates them for good).
 */
import { statSync } from 'node:fs';
import { rm, rmdir, stat, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { ensureFolder } from '../util/ensure-folder.js';

/** Why a folder cannot be written: the errno code, and the path that refused (the folder or a level above it). */
export interface FolderFault {
  code: string;
  path: string;
  message: string;
}

async function missingLevels(dir: string): Promise<string[]> {
  const missing: string[] = [];
  for (let at = resolve(dir); ; at = dirname(at)) {
    const exists = await stat(at).then(
      () => true,
      () => false,
    );
    if (exists || dirname(at) === at) return missing;
    missing.push(at);
  }
}

/** The nearest level of `path` (itself or above) that exists and is not a folder. */
function fileAbove(path: string): string {
  for (let at = path; dirname(at) !== at; at = dirname(at)) {
    try {
      if (!statSync(at).isDirectory()) return at;
    } catch {
      // not there (or not reachable): look higher
    }
  }
  return path;
}

/** null when writable, else why not. `keepCreated: false` removes the levels this probe created. */
export async function folderFault(dir: string, options: { keepCreated: boolean }): Promise<FolderFault | null> {
  const probe = join(dir, `.payexport-probe-${process.pid}`);
  const created = options.keepCreated ? [] : await missingLevels(dir);
  try {
    await ensureFolder(dir);
    await writeFile(probe, 'probe\n');
    return null;
  } catch (error) {
    const e = error as NodeJS.ErrnoException;
    const code = e.code ?? 'error';
    // the probe file refused: the folder itself is what cannot be written; a file in the way: name that file
    // a folder that could not be made was refused by the one above it
    const refused = e.path === undefined || e.path === probe ? dir : e.syscall === 'mkdir' && code !== 'EEXIST' ? dirname(e.path) : e.path;
    // not a folder: the file in the way is the level the error names, or one above it — never the
    // folder above that file (`--out /x/afile` named /x, issue 52)
    if (code === 'ENOTDIR') {
      const file = fileAbove(e.path === undefined || e.path === probe ? dir : e.path);
      return { code, path: file, message: `cannot write in ${dir} (ENOTDIR: ${file} is a file, not a folder)` };
    }
    return { code, path: refused, message: `cannot write in ${dir} (${code}${refused === dir ? '' : ` at ${refused}`})` };
  } finally {
    await rm(probe, { force: true }).catch(() => undefined);
    // deepest first: each level is empty once the one below it is gone
    for (const level of created) await rmdir(level).catch(() => undefined);
  }
}
