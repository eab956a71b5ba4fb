/**
 * The output root: writable (a probe file written and removed, which also holds for root and
 * read-only mounts; a root that does not exist yet is created for the probe and taken back), and
 * with room for another run as large as this configuration's last one — the newest report folder
 * of this organization (its manifest's `parameters.organization`: a root shared with the demo or
 * another account does not lend its size) says how many bytes its files took; the file system
 * (statfs) says how many are free to this user. The fix names the cause (folder-fix.ts).
 */
import { existsSync } from 'node:fs';
import { readdir, readFile, stat, statfs } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { folderFault } from '../../writable-folder.js';
import { fail, pass, type DoctorCheck } from '../check.js';
import { folderFix } from '../folder-fix.js';

/** The folder itself, or (not created yet) its nearest existing ancestor: where the space will come from. */
function existing(dir: string): string {
  let at = dir;
  while (!existsSync(at) && dirname(at) !== at) at = dirname(at);
  return at;
}

export interface LastRun {
  folder: string;
  bytes: number;
}

interface Manifest {
  files?: Array<{ bytes?: unknown }>;
  parameters?: { organization?: unknown };
}

/**
 * The newest `<out>/<job>/<period>/manifest.json` of `organizationId` (any, when none is
 * configured) and the bytes of the files it lists; null when no run of it wrote one.
 */
export async function lastRunSize(outRoot: string, organizationId?: string): Promise<LastRun | null> {
  const found: Array<{ path: string; mtimeMs: number; folder: string }> = [];
  for (const job of await readdir(outRoot).catch(() => [] as string[])) {
    if (job.startsWith('.')) continue;
    for (const period of await readdir(join(outRoot, job)).catch(() => [] as string[])) {
      const path = join(outRoot, job, period, 'manifest.json');
      const info = await stat(path).catch(() => null);
      if (info !== null) found.push({ path, mtimeMs: info.mtimeMs, folder: join(job, period) });
    }
  }
  for (const candidate of found.sort((a, b) => b.mtimeMs - a.mtimeMs)) {
    const manifest = await readFile(candidate.path, 'utf8').then((text) => JSON.parse(text) as Manifest).catch(() => null);
    if (manifest === null) continue;
    if (organizationId !== undefined && manifest.parameters?.organization !== organizationId) continue;
    const bytes = (manifest.files ?? []).reduce((sum, f) => sum + (typeof f.bytes === 'number' ? f.bytes : 0), 0);
    return { folder: candidate.folder, bytes };
  }
  return null;
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
    const fault = await folderFault(outRoot, { keepCreated: false });
    if (fault !== null) return [fail(title, fault.message, folderFix(fault, config.out, 'out'))];
    const fs = await statfs(existing(outRoot));
    const free = fs.bavail * fs.bsize;
    const last = await lastRunSize(outRoot, config.organization);
    if (last !== null && free < last.bytes) {
      return [fail(title, `${formatBytes(free)} free, but the last run (${last.folder}) wrote ${formatBytes(last.bytes)}`, `free space on the file system of ${config.out}, or point "out" at a larger one`)];
    }
    return [pass(title, `writable, ${formatBytes(free)} free${last === null ? ' (no run of this organization yet)' : ` (its last run, ${last.folder}, wrote ${formatBytes(last.bytes)})`}`)];
  },
};
