/**
 * What a report folder holds, for comparing two runs that wrote it: every file's sha256 but those
 * of the run, and the manifest without its run fields — what describes the run rather than the
 * books (docs/reliability.md#re-runs-and-rebuilds): the pull's evidence (`evidence.jsonl`: this
 * run's requests; a rebuild makes none), the manifest's signature (it signs the run fields too),
 * `run_id`, `command`, `started_at`, `finished_at`, the link to the record before it in the chain
 * of closes, and the counts of what the run pulled and of what its journal posted against the
 * snapshot's record (a rebuild pulls nothing; a second run finds its entries exported).
 */
import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

export const RUN_FILES: ReadonlySet<string> = new Set(['manifest.json', 'manifest.json.sig', 'evidence.jsonl']);
export const RUN_FIELDS = ['run_id', 'command', 'started_at', 'finished_at', 'chain'] as const;
/** counts of the run, not of the files */
export const RUN_COUNTS = /^(api_|pulled_)|^(duplicates_seen|payments_not_found|journal_unchanged|journal_corrected|journal_late|journal_deferred|journal_recorded|lots_recorded)$/;

export interface FolderDigest {
  /** file name → sha256, manifest.json left out */
  files: Record<string, string>;
  /** manifest.json without its run fields */
  manifest: Record<string, unknown>;
}

export async function folderDigest(dir: string): Promise<FolderDigest> {
  const files: Record<string, string> = {};
  for (const name of (await readdir(dir)).sort()) {
    if (RUN_FILES.has(name)) continue;
    files[name] = createHash('sha256').update(await readFile(join(dir, name))).digest('hex');
  }
  const manifest = JSON.parse(await readFile(join(dir, 'manifest.json'), 'utf8')) as Record<string, unknown>;
  for (const field of RUN_FIELDS) delete manifest[field];
  const counts = manifest['counts'] as Record<string, number> | undefined;
  if (counts !== undefined) manifest['counts'] = Object.fromEntries(Object.entries(counts).filter(([k]) => !RUN_COUNTS.test(k)));
  const listed = manifest['files'] as Array<{ path: string }> | undefined;
  if (listed !== undefined) manifest['files'] = listed.filter((f) => !RUN_FILES.has(f.path));
  return { files, manifest };
}
