/** The CSV and XLSX files under a report folder or an output root, for byte-for-byte comparisons. */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

/** Every CSV and XLSX under `root`, by path relative to it (the spool's `.state` folder left out). */
export function reportFiles(root: string): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      const full = join(dir, name);
      if (statSync(full).isDirectory()) {
        if (name !== '.state') walk(full);
      } else if (/\.(csv|xlsx)$/.test(name)) files.set(relative(root, full), readFileSync(full));
    }
  };
  walk(root);
  return files;
}
