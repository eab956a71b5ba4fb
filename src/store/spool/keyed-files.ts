/**
 * The spool's small keyed tables (wallets, assets): a whole file of rows sorted by key, replaced
 * atomically on each write, the last row of a key winning — what the database's upsert does.
 */
import { existsSync, readFileSync } from 'node:fs';
import type { WriteStats } from '../../model/ports.js';
import { decodeRow, encodeRow } from './row-codec.js';
import { writeAtomically } from './spool-files.js';
import { cmp } from './stream-reader.js';

export function readKeyed<T>(path: string, keyOf: (row: T) => string): Map<string, T> {
  const map = new Map<string, T>();
  if (!existsSync(path)) return map;
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    if (!line) continue;
    const row = decodeRow<T>(line);
    map.set(keyOf(row), row);
  }
  return map;
}

export function replaceKeyed<T>(path: string, rows: readonly T[], keyOf: (row: T) => string): WriteStats {
  const all = readKeyed<T>(path, keyOf);
  let inserted = 0;
  let updated = 0;
  let unchanged = 0;
  for (const row of rows) {
    const key = keyOf(row);
    const before = all.get(key);
    if (before === undefined) inserted++;
    else if (encodeRow(before) === encodeRow(row)) unchanged++;
    else updated++;
    all.set(key, row);
  }
  const sorted = [...all.entries()].sort(([a], [b]) => cmp(a, b)).map(([, row]) => encodeRow(row));
  writeAtomically(path, sorted.join('\n'));
  return { inserted, updated, unchanged };
}
