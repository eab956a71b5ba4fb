/**
 * The report folders the delivery bench sends: one made by a real `payexport month-end` (the built
 * CLI against a simulator child, `--no-db`), at least 40 MB (issue 40), and copies of it padded with
 * one file of incompressible bytes to a chosen total (50 MB, 500 MB) for the memory-flatness pair —
 * synthetic padding, listed in a rewritten manifest with its own sha256, so every delivery check
 * still holds. Files are hard-linked into the copies, not copied.
 */
import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream, linkSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { launcherEnv } from '../e2e/launcher-env.js';
import { ROOT, startSimChild, stopChild } from '../e2e/sim-child.js';

export interface BenchFolder {
  dir: string;
  bytes: number;
  files: number;
}

export const MONTH = '2026-10';

/** `payexport month-end --month 2026-10` over a stress dataset of `payments`; its folder. */
export async function monthEndFolder(work: string, payments: number, seed: number): Promise<BenchFolder> {
  const { child, info } = await startSimChild({ payments, wallets: 200, seed, latencyMs: 0 });
  try {
    const cwd = path.join(work, 'month-end');
    mkdirSync(cwd, { recursive: true });
    const env = { ...launcherEnv(process.env), PAYEXPORT_BASE_URL: info.baseUrl, PAYEXPORT_ORGANIZATION_ID: info.organizationId, PAYEXPORT_BEARER_TOKEN: info.bearerToken, PAYEXPORT_API_KEY: '', NO_COLOR: '1' };
    let stderr = '';
    const code = await new Promise<number>((resolve, reject) => {
      const job = spawn(process.execPath, [path.join(ROOT, 'dist/cli/main.js'), 'month-end', '--month', MONTH, '--no-db', '--allow-open', '--no-deliver', '--no-notify'], { cwd, env, stdio: ['ignore', 'ignore', 'pipe'] });
      job.stderr.on('data', (c: Buffer) => (stderr = (stderr + c.toString()).slice(-4000)));
      job.once('error', reject);
      job.once('close', (c) => resolve(c ?? 1));
    });
    if (code !== 0 && code !== 65) throw new Error(`month-end exited ${code}: ${stderr}`);
    return describe(path.join(cwd, 'reports', 'month-end', MONTH));
  } finally {
    await stopChild(child);
  }
}

/** A copy of `base` (hard links) plus `padding.bin` bringing it to `totalBytes`, under `<work>/<name>/month-end/2026-10`. */
export async function paddedFolder(base: BenchFolder, work: string, name: string, totalBytes: number): Promise<BenchFolder> {
  const dir = path.join(work, name, 'month-end', MONTH);
  mkdirSync(dir, { recursive: true });
  const manifest = JSON.parse(readFileSync(path.join(base.dir, 'manifest.json'), 'utf8')) as { files: Array<{ path: string; rows?: number; bytes: number; sha256: string }> };
  for (const file of manifest.files) {
    mkdirSync(path.dirname(path.join(dir, file.path)), { recursive: true });
    linkSync(path.join(base.dir, file.path), path.join(dir, file.path));
  }
  const padBytes = Math.max(0, totalBytes - base.bytes);
  const sha256 = await writeNoise(path.join(dir, 'padding.bin'), padBytes);
  manifest.files.push({ path: 'padding.bin', rows: 0, bytes: padBytes, sha256 });
  writeFileSync(path.join(dir, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  return describe(dir);
}

async function writeNoise(file: string, bytes: number): Promise<string> {
  const hash = createHash('sha256');
  const out = createWriteStream(file);
  for (let left = bytes; left > 0; ) {
    const chunk = randomBytes(Math.min(left, 1 << 20));
    hash.update(chunk);
    if (!out.write(chunk)) await new Promise<void>((r) => out.once('drain', () => r()));
    left -= chunk.length;
  }
  await new Promise<void>((resolve, reject) => out.end((e?: Error | null) => (e ? reject(e) : resolve())));
  return hash.digest('hex');
}

function describe(dir: string): BenchFolder {
  let bytes = 0;
  let files = 0;
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    bytes += statSync(path.join(entry.parentPath, entry.name)).size;
    files++;
  }
  return { dir, bytes, files };
}
