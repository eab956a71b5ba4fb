/**
 * The temp folders of one run (`<out>/<job>/.<name>.tmp-<runId>`), found and removed
 * synchronously: the last thing an interrupted run does when its own cleanup did not finish in
 * time (src/cli/interrupt-watchdog.ts), so no partial report is left behind.
 */
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { TEMP_MARK } from './folder-paths.js';

/** Removes every temp folder of `runId` one level below `outRoot`; returns the paths removed. Never throws. */
export function removeRunTempFoldersSync(outRoot: string, runId: string): string[] {
  const suffix = `${TEMP_MARK}${runId}`;
  const removed: string[] = [];
  for (const jobDir of childFolders(outRoot)) {
    for (const entry of childFolders(jobDir)) {
      if (!entry.slice(jobDir.length + 1).endsWith(suffix)) continue;
      try {
        rmSync(entry, { recursive: true, force: true });
        removed.push(entry);
      } catch {
        // best effort: the next run's cleanStaleFolders removes what is left (its owner is gone)
      }
    }
  }
  return removed;
}

function childFolders(dir: string): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => join(dir, entry.name));
  } catch {
    return [];
  }
}
