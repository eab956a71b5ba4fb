/**
 * A report folder already on disk, read through its own manifest.json — the record of what the
 * folder is (docs/reports.md#the-folder-is-the-authority): which run wrote it, whether its period
 * is closed, which scope it covers. What cannot be read as a manifest is said in words, so a caller
 * can stop naming the folder rather than guess.
 */
import { lstat, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { AppError } from '../util/errors.js';
import { MANIFEST_FILE } from './manifest.js';

export type FolderManifest =
  | { kind: 'manifest'; manifest: Record<string, unknown> }
  /** `why`: no manifest.json, or not a folder at all */
  | { kind: 'missing'; why: string }
  | { kind: 'unreadable'; why: string };

/** Close states under which a folder is a signed record (src/sinks/close-status.ts). */
const CLOSED_STATES: ReadonlySet<string> = new Set(['closed', 'closed_with_open_items']);

/**
 * Reads `dir/manifest.json`. A link at `dir` is refused as the publisher refuses it (ELOOP, exit
 * 74: it is not our folder and is never followed, SEC-09).
 */
export async function readFolderManifest(dir: string): Promise<FolderManifest> {
  const info = await lstat(dir);
  if (info.isSymbolicLink()) throw Object.assign(new Error(`${dir} is a symbolic link; refusing to follow it`), { code: 'ELOOP', path: dir });
  if (!info.isDirectory()) return { kind: 'missing', why: 'is a file, not a report folder' };
  let text: string;
  try {
    text = await readFile(join(dir, MANIFEST_FILE), 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'unknown';
    return code === 'ENOENT' ? { kind: 'missing', why: `has no ${MANIFEST_FILE}` } : { kind: 'unreadable', why: `has a ${MANIFEST_FILE} that cannot be read (${code})` };
  }
  let manifest: unknown;
  try {
    manifest = JSON.parse(text);
  } catch (error) {
    return { kind: 'unreadable', why: `has a ${MANIFEST_FILE} that is not JSON (${(error as Error).message}; truncated?)` };
  }
  // every manifest payexport ever wrote lists its files: anything else is not one of ours
  if (manifest === null || typeof manifest !== 'object' || Array.isArray(manifest) || !Array.isArray((manifest as { files?: unknown }).files)) {
    return { kind: 'unreadable', why: `has a ${MANIFEST_FILE} that is not a report manifest (no list of files)` };
  }
  return { kind: 'manifest', manifest: manifest as Record<string, unknown> };
}

/** Whether a manifest says its period is closed (`close.state`). */
export function manifestSaysClosed(manifest: Record<string, unknown>): boolean {
  const state = (manifest['close'] as { state?: unknown } | undefined)?.state;
  return typeof state === 'string' && CLOSED_STATES.has(state);
}

/**
 * Exit 73: a folder at the target that is not readable as a report is never deleted or replaced —
 * it may be the only copy of signed books — and the run writes nothing.
 */
export function unreadableFolderError(dir: string, why: string): AppError {
  return new AppError(
    'folderUnreadable',
    'report_folder_unreadable',
    `the report folder ${dir} ${why}: it is left as it is and nothing was written; restore its ${MANIFEST_FILE} (payexport verify ${dir} checks it) or move the folder aside, then run again`,
    { details: { dir } },
  );
}
