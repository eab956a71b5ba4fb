/**
 * What one delivery carries: a published report folder read through its manifest. The job and the
 * folder name (`2026-10`, `2026-10.amended-1`, `2026-11-21`) come from the manifest, so the remote
 * layout is `<root>/<job>/<folder>/` exactly as the local one under `<out>/`; the files delivered are
 * the manifest's, the manifest's signature `manifest.json.sig` when the manifest says it is signed
 * (docs/audit.md#signed-manifests: the far end's reader checks the same signature), then
 * `manifest.json` itself, always last. The pull's evidence is one of the manifest's files.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { SIGNATURE_FILE } from '../audit/manifest-signature.js';
import { MANIFEST_FILE, type Manifest } from '../sinks/manifest.js';
import { assertSafeName } from '../sinks/folder-paths.js';
import { usageError } from '../util/errors.js';

export interface FileToDeliver {
  /** path inside the folder, `/`-separated (a journal file may sit in a subfolder) */
  path: string;
  local: string;
  bytes: number;
  sha256: string;
}

export interface ReportToDeliver {
  dir: string;
  runId: string;
  job: string;
  folder: string;
  /** the data files, in the manifest's order, then the manifest's signature when it has one */
  files: FileToDeliver[];
  /** manifest.json: delivered last, after every file checked */
  manifest: FileToDeliver;
  manifestBytes: Buffer;
}

const SAFE_PATH = /^[A-Za-z0-9_-][A-Za-z0-9._-]*(\/[A-Za-z0-9_-][A-Za-z0-9._-]*)*$/;

export async function readReportToDeliver(dir: string): Promise<ReportToDeliver> {
  let manifestBytes: Buffer;
  try {
    manifestBytes = await readFile(join(dir, MANIFEST_FILE));
  } catch {
    throw usageError('not_a_report_folder', `${dir} has no ${MANIFEST_FILE}: give a published report folder such as reports/month-end/2026-10`);
  }
  let manifest: Manifest;
  try {
    manifest = JSON.parse(manifestBytes.toString('utf8')) as Manifest;
  } catch {
    throw usageError('not_a_report_folder', `${dir}/${MANIFEST_FILE} is not JSON`);
  }
  if (typeof manifest.job !== 'string' || typeof manifest.folder !== 'string' || !Array.isArray(manifest.files)) {
    throw usageError('not_a_report_folder', `${dir}/${MANIFEST_FILE} names no job, folder or files`);
  }
  assertSafeName('job', manifest.job);
  assertSafeName('folder', manifest.folder);
  const files = manifest.files.map((f) => {
    if (!SAFE_PATH.test(f.path) || f.path.split('/').includes('..') || !/^[0-9a-f]{64}$/.test(f.sha256)) {
      throw usageError('not_a_report_folder', `${dir}/${MANIFEST_FILE} lists a file it should not: ${JSON.stringify(f.path)}`);
    }
    return { path: f.path, local: join(dir, ...f.path.split('/')), bytes: f.bytes, sha256: f.sha256 };
  });
  const signature = await signatureToDeliver(dir, manifest);
  if (signature !== null) files.push(signature);
  const manifestFile: FileToDeliver = {
    path: MANIFEST_FILE,
    local: join(dir, MANIFEST_FILE),
    bytes: manifestBytes.length,
    sha256: createHash('sha256').update(manifestBytes).digest('hex'),
  };
  return { dir, runId: String(manifest.run_id), job: manifest.job, folder: manifest.folder, files, manifest: manifestFile, manifestBytes };
}

/** The signature the manifest names, read as it is (a folder whose signature went missing is not delivered unsigned). */
async function signatureToDeliver(dir: string, manifest: Manifest): Promise<FileToDeliver | null> {
  if (manifest.signature === undefined) return null;
  const local = join(dir, SIGNATURE_FILE);
  const bytes = await readFile(local).catch(() => null);
  if (bytes === null) throw usageError('not_a_report_folder', `${dir}/${MANIFEST_FILE} says key ${String(manifest.signature.key_id)} signed it, but ${SIGNATURE_FILE} is missing: check the folder with payexport verify ${dir}`);
  return { path: SIGNATURE_FILE, local, bytes: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') };
}
