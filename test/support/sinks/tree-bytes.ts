/** Every file under a folder, by path relative to it, as its sha256: "left byte for byte as it was" in one comparison. */
import { createHash } from 'node:crypto';
import { existsSync, lstatSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

export function treeBytes(root: string): Record<string, string> {
  const files: Record<string, string> = {};
  if (!existsSync(root)) return files;
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir).sort()) {
      const full = join(dir, name);
      const info = lstatSync(full);
      if (info.isDirectory()) walk(full);
      else files[relative(root, full)] = info.isSymbolicLink() ? 'link' : createHash('sha256').update(readFileSync(full)).digest('hex');
    }
  };
  walk(root);
  return files;
}
