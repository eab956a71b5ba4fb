/**
 * Where a report folder goes: `<out>/<job>/<period>/`, its temporary sibling
 * `<out>/<job>/.<period>.tmp-<runId>/`, and `<period>.amended-N/` for a closed period
 * (docs/contracts.md#report-folder). Names come from users and config, so they are allowlisted
 * (`[A-Za-z0-9._-]`, no leading dot) and the resolved path must stay inside the output root.
 */
import { readdir } from 'node:fs/promises';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { usageError } from '../util/errors.js';

const SAFE_NAME = /^[A-Za-z0-9_-][A-Za-z0-9._-]*$/;
const MAX_NAME = 128;

/** Rejects a path component that could escape the output root or collide with temp folders. */
export function assertSafeName(kind: string, name: string): void {
  if (name.length === 0 || name.length > MAX_NAME || !SAFE_NAME.test(name) || name === '.' || name === '..' || name.includes('..')) {
    throw usageError('bad_output_name', `${kind} "${name}" is not a safe folder name: use letters, digits, ".", "_" and "-" (no leading dot, no "..")`, { kind });
  }
}

/** `root/…parts`, refusing anything that resolves outside `root`. */
export function insideRoot(root: string, ...parts: string[]): string {
  const base = resolve(root);
  const target = resolve(base, ...parts);
  const rel = relative(base, target);
  if (rel === '' || rel.startsWith('..') || isAbsolute(rel)) {
    throw usageError('bad_output_name', `output path ${join(...parts)} resolves outside the output root`, { root: base });
  }
  return target;
}

export const TEMP_MARK = '.tmp-';
export const OLD_MARK = '.old-';

export function tempName(finalName: string, runId: string): string {
  return `.${finalName}${TEMP_MARK}${runId}`;
}

export function oldName(finalName: string, runId: string): string {
  return `.${finalName}${OLD_MARK}${runId}`;
}

/** `2026-10.amended-3` → 3 for period `2026-10`; null for anything else. */
export function amendmentNumber(period: string, entry: string): number | null {
  const prefix = `${period}.amended-`;
  if (!entry.startsWith(prefix)) return null;
  const n = entry.slice(prefix.length);
  return /^[1-9]\d{0,5}$/.test(n) ? Number(n) : null;
}

/** Versions of a period that exist in the job folder: the base name first, then amendments in order. */
export async function existingVersions(jobDir: string, period: string): Promise<string[]> {
  let entries: string[];
  try {
    entries = await readdir(jobDir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const amendments = entries
    .map((e) => ({ e, n: amendmentNumber(period, e) }))
    .filter((x): x is { e: string; n: number } => x.n !== null)
    .sort((a, b) => a.n - b.n)
    .map((x) => x.e);
  return entries.includes(period) ? [period, ...amendments] : amendments;
}
