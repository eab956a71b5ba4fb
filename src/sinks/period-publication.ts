/**
 * The last step of a report folder (docs/reports.md#the-folder-is-the-authority): the period's
 * versions on disk are read again — another run may have published since the folder was opened —
 * the target follows them, manifest.json is written for that target and the temporary folder is
 * renamed into place; or nothing is written when a closed period's files equal its latest
 * version's (PROC-16). An amendment number another run took meanwhile moves this one to the next.
 */
import { rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { keepPublicKey, SIGNATURE_FILE, signatureNote, type ManifestSigner } from '../audit/manifest-signature.js';
import { publishFolder } from './atomic-folder.js';
import { isChainRecord, nextChainLink } from './close-chain.js';
import { MANIFEST_FILE, manifestJson, type Manifest, type ManifestFile } from './manifest.js';
import type { OutputScope } from './output-scope.js';
import { publishTarget, readPeriodOnDisk, type PeriodOnDisk, type PublishTarget } from './period-on-disk.js';

export interface PeriodPublication {
  tempDir: string;
  jobDir: string;
  period: string;
  scope: OutputScope;
  /** the snapshot records the period as closed */
  closedBySnapshot: boolean;
  runId: string;
  /** the files the manifest lists (manifest.json not among them) */
  files: readonly ManifestFile[];
  /** whether a file decides if a closed period changed (files derived from the tables do not) */
  compared(path: string): boolean;
  manifestFor(target: PublishTarget): Manifest;
  /** writes manifest.json (a new file) into the temporary folder */
  writeManifest(text: string): Promise<void>;
  /** signs manifest.json (docs/audit.md#signed-manifests); null: the folder is not signed */
  signer?: ManifestSigner | null;
}

/** Retries when the amendment it foresaw is taken: a few runs racing for one period at most. */
const MAX_ATTEMPTS = 5;

export async function publishPeriod(p: PeriodPublication): Promise<{ dir: string; manifest: Manifest; unchanged: boolean }> {
  for (let attempt = 1; ; attempt++) {
    const onDisk = await readPeriodOnDisk(p.jobDir, p.period, p.scope);
    const target = publishTarget(p.period, onDisk, p.closedBySnapshot);
    const manifest = p.manifestFor(target);
    const signer = p.signer ?? null;
    if (signer !== null) manifest.signature = signatureNote(signer);
    // read again on every attempt, like the versions: the record published last is the one before this
    if (isChainRecord(manifest as unknown as Record<string, unknown>)) manifest.chain = await nextChainLink(p.jobDir);
    const latest = onDisk.versions[onDisk.versions.length - 1];
    if (!target.replace && latest !== undefined && sameAsLatest(onDisk, p.files, p.compared)) {
      await rm(p.tempDir, { recursive: true, force: true });
      return { dir: join(p.jobDir, latest.name), manifest, unchanged: true };
    }
    await rm(join(p.tempDir, MANIFEST_FILE), { force: true });
    await rm(join(p.tempDir, SIGNATURE_FILE), { force: true });
    const text = manifestJson(manifest);
    await p.writeManifest(text);
    if (signer !== null) {
      // the public half is under the root before any folder it signed is (the output root is the job folder's parent)
      await keepPublicKey(dirname(p.jobDir), signer);
      await writeFile(join(p.tempDir, SIGNATURE_FILE), signer.sign(Buffer.from(text, 'utf8')), { mode: 0o640, flag: 'wx', flush: true });
    }
    try {
      return { dir: await publishFolder(p.tempDir, p.jobDir, target.name, { replace: target.replace, runId: p.runId }), manifest, unchanged: false };
    } catch (error) {
      // only an open period is ever renamed over; an amendment's name taken meanwhile is read again
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || target.replace || attempt >= MAX_ATTEMPTS) throw error;
    }
  }
}

function sameAsLatest(onDisk: PeriodOnDisk, files: readonly ManifestFile[], compared: (path: string) => boolean): boolean {
  const previous = onDisk.versions[onDisk.versions.length - 1]?.manifest['files'];
  const key = (fs: readonly ManifestFile[]): string => JSON.stringify(fs.filter((f) => compared(f.path)).map((f) => [f.path, f.sha256]).sort());
  return Array.isArray(previous) && key(previous as ManifestFile[]) === key(files);
}
