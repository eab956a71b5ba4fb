/**
 * Whether a folder can take a run's files: created if missing (as a run would), then a probe file
 * written and removed — the only test that also holds for root, read-only mounts and full disks,
 * where permission bits alone would say yes.
 */
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ensureFolder } from '../util/ensure-folder.js';

/** null when writable, else why not (the error code and the path, no more). */
export async function folderProblem(dir: string): Promise<string | null> {
  const probe = join(dir, `.payexport-probe-${process.pid}`);
  try {
    await ensureFolder(dir);
    await writeFile(probe, 'probe\n');
    return null;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'error';
    return `cannot write in ${dir} (${code})`;
  } finally {
    await rm(probe, { force: true }).catch(() => undefined);
  }
}
