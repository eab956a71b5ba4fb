/** A temporary folder per test file, and a fresh working directory per CLI run inside it. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface Workspace {
  root: string;
  /** a new empty folder under the root */
  fresh(label: string): string;
  remove(): void;
}

export function workspace(label: string): Workspace {
  const root = mkdtempSync(join(tmpdir(), `payexport-cli-${label}-`));
  let n = 0;
  return {
    root,
    fresh: (name) => mkdtempSync(join(root, `${String(++n).padStart(2, '0')}-${name.replace(/[^a-z0-9]+/gi, '-')}-`)),
    remove: () => rmSync(root, { recursive: true, force: true }),
  };
}
