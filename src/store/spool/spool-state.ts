/**
 * What the spool remembers between runs (spool-store.ts): the run itself (`state.json`) and each
 * stream's checkpoint (the journal's lines), and the readers that accept only what saveState and
 * appendPage wrote — anything else is set aside, never trusted.
 */
import type { Checkpoint, RunStatus } from '../../model/ports.js';
import type { Window } from '../../model/window.js';
import { fileNameFor } from './spool-files.js';

export interface StreamState {
  /** the run the checkpoint belongs to: a journal line of another run is not this run's position */
  run_key: string | null;
  checkpoint: Checkpoint;
  /** byte length of the stream's file at this checkpoint */
  length: number;
  /** sha256 of those bytes: a resume trusts a file only if it still holds exactly what was checkpointed */
  sha256: string;
  file: string;
  /** wallets whose rows the file holds */
  wallets: string[];
}

export interface SpoolState {
  run_key: string | null;
  run_id: string | null;
  status: RunStatus | null;
  window: Window | null;
  streams: Record<string, StreamState>;
  summaries_window: Window | null;
}

const STATUSES: ReadonlySet<unknown> = new Set<RunStatus | null>(['running', 'succeeded', 'exceptions', 'failed', null]);

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isWindowOrNull(value: unknown): boolean {
  return value === null || (isRecord(value) && typeof value.from === 'string' && typeof value.to === 'string');
}

/** state.json as written by saveState, or null for anything else (garbage, cut short, another shape). */
export function readSpoolState(bytes: Buffer): SpoolState | null {
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch {
    return null;
  }
  if (!isRecord(value)) return null;
  const { run_key, run_id, status, window, summaries_window } = value;
  if (!(run_key === null || typeof run_key === 'string') || !(run_id === null || typeof run_id === 'string')) return null;
  if (!STATUSES.has(status) || !isWindowOrNull(window) || !isWindowOrNull(summaries_window ?? null)) return null;
  return { run_key, run_id, status: status as RunStatus | null, window: window as Window | null, streams: {}, summaries_window: (summaries_window ?? null) as Window | null };
}

/** One journal line as appendPage writes it; its file name must be the one its stream maps to (no path of its own). */
export function readStreamState(value: unknown): StreamState | null {
  if (!isRecord(value) || !isRecord(value.checkpoint)) return null;
  const { run_key, checkpoint, length, sha256, file, wallets } = value;
  if (typeof run_key !== 'string' || typeof checkpoint.stream !== 'string' || typeof sha256 !== 'string') return null;
  if (typeof length !== 'number' || !Number.isSafeInteger(length) || length < 0) return null;
  if (file !== fileNameFor(checkpoint.stream) || !Array.isArray(wallets) || !wallets.every((w) => typeof w === 'string')) return null;
  return value as unknown as StreamState;
}

