/**
 * The fix for a folder a run cannot write, by its cause (the errno of the probe,
 * writable-folder.ts) — a read-only mount is not fixed by creating the folder, nor a full disk by
 * permissions. `key` is the config key that names the folder (`out`, `dataDir`), so the fix says
 * what to change in the config when the place itself cannot be fixed.
 */
import { userInfo } from 'node:os';
import type { FolderFault } from '../writable-folder.js';

function whoAmI(): string {
  try {
    return userInfo().username;
  } catch {
    return 'this user';
  }
}

export function folderFix(fault: FolderFault, folder: string, key: string): string {
  const elsewhere = `or point "${key}" at a folder this user can write`;
  switch (fault.code) {
    case 'EROFS':
      return `${fault.path} is on a read-only file system: remount it read-write, ${elsewhere}`;
    case 'EACCES':
    case 'EPERM':
      return `${whoAmI()} (the user this runs as) may not write in ${fault.path}: give it write permission there (chown or chmod), ${elsewhere}`;
    case 'ENOSPC':
    case 'EDQUOT':
      return `the file system of ${fault.path} is full (or over quota): free space there, ${elsewhere}`;
    case 'ENOTDIR':
    case 'EEXIST':
      return `${fault.path} is a file where a folder is needed: move that file away, ${elsewhere}`;
    case 'ENOENT':
      // mkdir said ENOENT although the level above exists: a file system that makes no folders (procfs, sysfs)
      return `${folder} cannot be created where it is (${fault.path} takes no new folders): point "${key}" at a folder on an ordinary disk`;
    default:
      return `check ${fault.path} (${fault.code}), ${elsewhere}`;
  }
}
