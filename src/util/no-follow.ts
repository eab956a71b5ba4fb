/**
 * Writes that never follow a symbolic link planted where a file or folder of ours goes (SEC-09):
 * a link at a spool file, a temporary file or the state folder would otherwise send our bytes — or
 * an O_TRUNC — to wherever it points. Files are opened with O_NOFOLLOW (the kernel answers ELOOP,
 * exit 74 naming the path); a temporary name of our own is unlinked first and created with O_EXCL;
 * a folder of ours is checked with lstat before anything is written under it.
 */
import { constants, lstatSync, rmSync } from 'node:fs';
import { AppError } from './errors.js';

const { O_WRONLY, O_CREAT, O_APPEND, O_TRUNC, O_EXCL, O_NOFOLLOW } = constants;

/** append, creating it: never through a link */
export const APPEND_NO_FOLLOW = O_WRONLY | O_CREAT | O_APPEND | O_NOFOLLOW;
/** replace the contents, creating it: never through a link */
export const REPLACE_NO_FOLLOW = O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW;
/** a new file only (O_EXCL refuses anything at the name, a dangling link too) */
export const CREATE_NEW = O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW;

/** Clears a temporary name of ours (whatever is there, a planted link included) before it is created with CREATE_NEW. */
export function clearTemporary(path: string): void {
  rmSync(path, { force: true });
}

/** 74 when `path` is a symbolic link; nothing there, or a real folder, passes. */
export function assertNotLink(path: string, what: string): void {
  let link = false;
  try {
    link = lstatSync(path).isSymbolicLink();
  } catch {
    return;
  }
  if (link) throw new AppError('cantCreate', 'output_not_writable', `cannot write ${path}: ${what} is a symbolic link; refusing to follow it (ELOOP)`, { details: { path, code: 'ELOOP' } });
}
