/**
 * Stream names and checkpoint positions. A stream is one sequential chain of pages; its name is the
 * checkpoint key within a run (src/store/ports.ts `Checkpoint.stream`).
 */
import type { SweepPosition } from '../api/paginate.js';
import type { Checkpoint } from '../store/ports.js';

export const streamName = {
  environmentSummary: (environmentId: string): string => `summary:env:${environmentId}`,
  walletSummary: (walletId: string): string => `summary:wallet:${walletId}`,
  payments: (walletId: string): string => `payments:wallet:${walletId}`,
  ledger: (walletId: string): string => `ledger:wallet:${walletId}`,
  paymentsById: (walletId: string, purpose: 'orphans' | 'open'): string => `payments:byid-${purpose}:${walletId}`,
} as const;

/** What a payments stream saves: where to resume, or `done`. */
export type PaymentsPosition = { next: SweepPosition | null };
/** What a ledger stream saves: the offset to resume at, and the start_date it was asked with. */
export type LedgerPosition = { next: number | null; startDate: string | null };

export function encodePosition(position: unknown): string {
  return JSON.stringify(position);
}

export function decodePosition<T>(checkpoint: Checkpoint | undefined): T | undefined {
  if (!checkpoint) return undefined;
  try {
    return JSON.parse(checkpoint.position) as T;
  } catch {
    return undefined;
  }
}

/** Checkpoints of a resumed run, by stream. */
export type ResumeMap = ReadonlyMap<string, Checkpoint>;
