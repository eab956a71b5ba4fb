/**
 * "The same arguments": a killed run started again with the same command, window, organization,
 * scope and shard finds its checkpoints under this key and resumes.
 */
import { createHash } from 'node:crypto';
import type { Window } from '../model/window.js';

export interface RunKeyParts {
  command: string;
  organizationId: string;
  window: Window | null;
  environments: readonly string[];
  wallets: readonly string[];
  shard: string | undefined;
}

export function runKey(parts: RunKeyParts): string {
  const canonical = JSON.stringify([
    parts.command,
    parts.organizationId.toLowerCase(),
    parts.window ? [parts.window.from, parts.window.to] : null,
    [...parts.environments].map((e) => e.toLowerCase()).sort(),
    [...parts.wallets].map((w) => w.toLowerCase()).sort(),
    parts.shard ?? null,
  ]);
  return `${parts.command}:${createHash('sha256').update(canonical).digest('hex').slice(0, 24)}`;
}

/** A sortable, unique run id: UTC time + random suffix (safe as a folder-name component). */
export function newRunId(now: Date): string {
  const stamp = now.toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');
  const random = createHash('sha256').update(`${now.getTime()}-${process.pid}-${Math.random()}`).digest('hex').slice(0, 8);
  return `${stamp}-${random}`;
}
