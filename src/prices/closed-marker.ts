/**
 * The cache's memory of closed periods: `closed-through` in the cache folder holds the end of the
 * last period a month-end closed. The fetcher never appends a price stamped at or before it, so a
 * closed period is valued on re-reading exactly as it was when it closed (docs/prices.md#closed).
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { toUtcInstant } from '../model/instant.js';
import type { UtcInstant } from '../model/rows.js';

export const CLOSED_MARKER = 'closed-through';

export function readClosedThrough(cacheDir: string): UtcInstant | null {
  try {
    return toUtcInstant(readFileSync(join(cacheDir, CLOSED_MARKER), 'utf8').trim());
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

/** Moves the mark forward to `through` (never back); atomic like the cache files. */
export function markClosedThrough(cacheDir: string, through: UtcInstant): void {
  const current = readClosedThrough(cacheDir);
  if (current !== null && current >= through) return;
  mkdirSync(cacheDir, { recursive: true });
  const temp = join(cacheDir, `.${CLOSED_MARKER}.${process.pid}.tmp`);
  writeFileSync(temp, `${through}\n`);
  renameSync(temp, join(cacheDir, CLOSED_MARKER));
}
