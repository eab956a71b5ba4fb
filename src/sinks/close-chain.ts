/**
 * The chain of closes (docs/audit.md#the-chain-of-closes): every close and every amendment of a
 * job records the sha256 of the manifest of the record published before it under the same job
 * folder (one scope per output root, docs/reports.md#one-scope-per-output-root) and its place in
 * the sequence. Removing a closed month, reordering two, or putting an older run in place of a
 * close leaves a record whose `previous` no longer matches what the folder holds.
 *
 * The chain follows publication, not the calendar: an amendment of September written after
 * October's close comes after October's close in the chain.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { chainLinkOf, sha256Hex, type ChainLink } from '../audit/chain-link.js';
import { MANIFEST_FILE } from './manifest.js';

export { isChainRecord, type ChainLink } from '../audit/chain-link.js';

/** A published folder of a job, read for the chain: its manifest's exact bytes and what they say. */
export interface JobFolder {
  name: string;
  manifestSha256: string;
  manifest: Record<string, unknown>;
}

/** Every published folder under `jobDir` with a manifest that parses (others are the publisher's and verify's concern). */
export async function readJobFolders(jobDir: string): Promise<JobFolder[]> {
  const entries = await readdir(jobDir, { withFileTypes: true }).catch(() => []);
  const folders: JobFolder[] = [];
  for (const entry of entries.filter((e) => e.isDirectory() && !e.name.startsWith('.')).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const bytes = await readFile(join(jobDir, entry.name, MANIFEST_FILE)).catch(() => null);
    if (bytes === null) continue;
    try {
      const manifest = JSON.parse(bytes.toString('utf8')) as unknown;
      if (manifest !== null && typeof manifest === 'object' && !Array.isArray(manifest)) folders.push({ name: entry.name, manifestSha256: sha256Hex(bytes), manifest: manifest as Record<string, unknown> });
    } catch {
      continue;
    }
  }
  return folders;
}

/** The link a new record of `jobDir` gets: after the record with the highest sequence number. */
export async function nextChainLink(jobDir: string): Promise<ChainLink> {
  let head: { folder: string; sha256: string; seq: number } | null = null;
  for (const folder of await readJobFolders(jobDir)) {
    const link = chainLinkOf(folder.manifest);
    if (link !== null && (head === null || link.seq > head.seq)) head = { folder: folder.name, sha256: folder.manifestSha256, seq: link.seq };
  }
  return head === null ? { seq: 1, previous: null } : { seq: head.seq + 1, previous: { folder: head.folder, manifest_sha256: head.sha256 } };
}
