/**
 * "A planted secret appears in 0 bytes": searched raw, URL-encoded and base64-encoded in the
 * process output and in every file under the given folders (reports, spool, embedded database);
 * workbooks are searched inflated, entry by entry.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { zipEntries } from '../sinks/zip-entries.js';

function forms(secret: string): string[] {
  return [...new Set([secret, encodeURIComponent(secret), Buffer.from(secret).toString('base64'), Buffer.from(secret).toString('base64url')])];
}

function filesUnder(dir: string): string[] {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  return entries.flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return filesUnder(path);
    return entry.isFile() ? [path] : [];
  });
}

/** Asserts no secret occurs in `texts` nor in any file under `dirs`; returns how many bytes were searched. */
export function expectNoSecrets(secrets: readonly string[], where: { texts?: readonly string[]; dirs?: readonly string[] }): number {
  let searched = 0;
  const needles = secrets.flatMap((secret) => forms(secret).map((form) => ({ secret, form: Buffer.from(form) })));
  const check = (label: string, bytes: Buffer): void => {
    searched += bytes.length;
    for (const { secret, form } of needles) expect(bytes.includes(form), `${label} holds the secret ${secret.slice(0, 12)}…`).toBe(false);
  };
  (where.texts ?? []).forEach((text, i) => check(`output #${i}`, Buffer.from(text)));
  for (const dir of where.dirs ?? []) {
    for (const file of filesUnder(dir)) {
      if (statSync(file).size === 0) continue;
      const bytes = readFileSync(file);
      check(file, bytes);
      if (file.endsWith('.xlsx')) for (const entry of zipEntries(bytes)) check(`${file}!${entry.name}`, entry.content());
    }
  }
  return searched;
}
