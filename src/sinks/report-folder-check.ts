/**
 * What `payexport verify DIR` is pointed at, checked before anything is compared: a path that is
 * not there, not a folder, or a folder without manifest.json is a wrong argument (exit 64, saying
 * which), not a report that fails to match its manifest (65). A manifest that is there but cannot
 * be parsed stays a mismatch: the folder claims to be a report.
 */
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { usageError } from '../util/errors.js';
import { MANIFEST_FILE } from './manifest.js';

const EXAMPLE = 'e.g. reports/month-end/2026-10';

async function kindOf(path: string): Promise<'folder' | 'file' | 'none' | string> {
  try {
    return (await stat(path)).isDirectory() ? 'folder' : 'file';
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'unknown';
    return code === 'ENOENT' ? 'none' : code;
  }
}

/** Throws a usage error naming what `dir` is instead of a report folder; returns when it is one. */
export async function assertReportFolder(dir: string): Promise<void> {
  const kind = await kindOf(dir);
  if (kind === 'none') throw usageError('no_such_folder', `no folder '${dir}': verify needs a report folder (${EXAMPLE})`, { dir });
  if (kind === 'file') throw usageError('not_a_folder', `'${dir}' is a file, not a report folder (${EXAMPLE})`, { dir });
  if (kind !== 'folder') throw usageError('folder_unreadable', `the folder '${dir}' cannot be read (${kind})`, { dir });
  const manifest = await kindOf(join(dir, MANIFEST_FILE));
  if (manifest === 'none') throw usageError('not_a_report', `'${dir}' is not a report folder: it has no ${MANIFEST_FILE} (${EXAMPLE})`, { dir });
}
