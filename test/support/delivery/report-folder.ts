/**
 * A published report folder as the delivery room sees it: files and a manifest.json naming each
 * with its bytes and sha256 (the shape of src/sinks/manifest.ts). The transport tests use it to
 * choose sizes and contents (a file large enough to cut mid-upload, a closed or amended period);
 * test/cli/deliver.test.ts delivers the pipeline's own folders.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

export interface FolderSpec {
  job?: string;
  folder?: string;
  closed?: boolean;
  runId?: string;
  files: Record<string, Buffer | string>;
}

export function sha256(bytes: Buffer | string): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** Writes `<out>/<job>/<folder>/` and returns its path. */
export function writeReportFolder(out: string, spec: FolderSpec): string {
  const job = spec.job ?? 'month-end';
  const folder = spec.folder ?? '2026-10';
  const dir = join(out, job, folder);
  mkdirSync(dir, { recursive: true });
  const files = Object.entries(spec.files).map(([path, content]) => {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), content);
    return { path, rows: 0, bytes: Buffer.byteLength(content), sha256: sha256(content) };
  });
  const manifest = { schema_version: 1, run_id: spec.runId ?? `run-${randomBytes(4).toString('hex')}`, command: job, job, period: folder.split('.')[0], folder, close: { state: spec.closed ? 'closed' : 'not_a_closing_run' }, files };
  writeFileSync(join(dir, 'manifest.json'), JSON.stringify(manifest, null, 2) + '\n');
  return dir;
}

/** Incompressible bytes (so a transfer of them takes measurable time on loopback). */
export function noise(bytes: number): Buffer {
  return randomBytes(bytes);
}
