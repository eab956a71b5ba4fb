/**
 * The output root: writable (a probe file written and removed, which also holds for root and
 * read-only mounts), and with room for another run as large as the last one — the newest report
 * folder's manifest says how many bytes its files took; the file system (statfs) says how many
 * are free to this user.
 */
import { readdir, readFile, stat, statfs } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { folderProblem } from '../../writable-folder.js';
import { fail, pass, type DoctorCheck } from '../check.js';

export interface LastRun {
  folder: string;
  bytes: number;
}

/** The newest `<out>/<job>/<period>/manifest.json` and the bytes of the files it lists; null when no run wrote one. */
export async function lastRunSize(outRoot: string): Promise<LastRun | null> {
  let newest: { path: string; mtimeMs: number; folder: string } | null = null;
  for (const job of await readdir(outRoot).catch(() => [] as string[])) {
    if (job.startsWith('.')) continue;
    for (const period of await readdir(join(outRoot, job)).catch(() => [] as string[])) {
      const path = join(outRoot, job, period, 'manifest.json');
      const info = await stat(path).catch(() => null);
      if (info !== null && (newest === null || info.mtimeMs > newest.mtimeMs)) newest = { path, mtimeMs: info.mtimeMs, folder: join(job, period) };
    }
  }
  if (newest === null) return null;
  try {
    const manifest = JSON.parse(await readFile(newest.path, 'utf8')) as { files?: Array<{ bytes?: unknown }> };
    const bytes = (manifest.files ?? []).reduce((sum, f) => sum + (typeof f.bytes === 'number' ? f.bytes : 0), 0);
    return { folder: newest.folder, bytes };
  } catch {
    return null;
  }
}

export function formatBytes(bytes: number): string {
  const units = ['B', 'kB', 'MB', 'GB', 'TB', 'PB', 'EB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit += 1;
  }
  return `${unit === 0 ? value : value.toFixed(1)} ${units[unit]}`;
}

export const outputRootCheck: DoctorCheck = {
  id: 'output-root',
  async run(ctx) {
    const { config } = ctx.loaded;
    const outRoot = resolve(ctx.cwd, config.out);
    const title = `output root ${config.out}`;
    const problem = await folderProblem(outRoot);
    if (problem !== null) return [fail(title, problem, `create ${config.out} for the user the scheduler runs as (or point "out" elsewhere)`)];
    const fs = await statfs(outRoot);
    const free = fs.bavail * fs.bsize;
    const last = await lastRunSize(outRoot);
    if (last !== null && free < last.bytes) {
      return [fail(title, `${formatBytes(free)} free, but the last run (${last.folder}) wrote ${formatBytes(last.bytes)}`, `free space on the file system of ${config.out}, or point "out" at a larger one`)];
    }
    return [pass(title, `writable, ${formatBytes(free)} free${last === null ? ' (no run yet)' : ` (the last run, ${last.folder}, wrote ${formatBytes(last.bytes)})`}`)];
  },
};
