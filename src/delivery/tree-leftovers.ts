/**
 * The hidden entries a delivery makes beside a report folder on a file tree, and their removal.
 * Each carries the `payexport-` marker, so a delivery removes only what a delivery made:
 *
 *   .<folder>.payexport-part/        the folder being filled; one per folder, whatever the manifest,
 *                                    so a later attempt — `payexport deliver` or the job run again
 *                                    with a new manifest — finds what an earlier one sent and keeps it
 *   .<folder>.payexport-old-<run>/   the published version stepping aside for one rename
 *
 * Earlier versions named them `.<folder>.part-<16 hex>` and `.<folder>.old-<run id>`: a
 * delivery removes those too (the exact shapes that code made, nothing looser).
 */
import type { RemoteTree } from './remote-tree.js';

export function partName(folder: string): string {
  return `.${folder}.payexport-part`;
}

export function oldName(folder: string, runId: string): string {
  return `.${folder}.payexport-old-${runId}`;
}

const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Whether an entry of the job's folder is a temporary entry of a delivery of `folder`. */
export function isLeftoverOf(folder: string, name: string): boolean {
  const f = escape(folder);
  return new RegExp(`^\\.${f}\\.(payexport-part|payexport-old-[A-Za-z0-9_-]+|part-[0-9a-f]{16}|old-\\d{8}T\\d{6}Z-[0-9a-f]{8})$`).test(name);
}

/**
 * Removes every temporary entry of `folder`'s earlier deliveries under `jobDir`, except `keep`.
 * Never throws: what could not be removed comes back as a warning (the folder itself arrived).
 */
export async function removeLeftovers(tree: RemoteTree, jobDir: string, folder: string, keep: readonly string[] = []): Promise<string[]> {
  const warnings: string[] = [];
  let entries;
  try {
    entries = await tree.list(jobDir);
  } catch (error) {
    return [`could not list ${jobDir} for leftovers of earlier attempts: ${message(error)}`];
  }
  for (const entry of entries) {
    if (!isLeftoverOf(folder, entry.name) || keep.includes(entry.name)) continue;
    const path = tree.join(jobDir, entry.name);
    try {
      if (entry.dir) await tree.removeTree(path);
      else await tree.removeFile(path);
    } catch (error) {
      warnings.push(`could not remove ${path}, left by an earlier attempt: ${message(error)}`);
    }
  }
  return warnings;
}

const message = (error: unknown): string => (error instanceof Error ? error.message : String(error));
