/**
 * Stream names and checkpoint positions. A stream is one sequential chain of pages; its name is the
 * checkpoint key within a run (src/model/ports.ts `Checkpoint.stream`).
 */
import type { SweepPosition } from '../api/paginate.js';
import type { Checkpoint } from '../model/ports.js';
import type { TimeRange } from './time-slices.js';

export const streamName = {
  environmentSummary: (environmentId: string): string => `summary:env:${environmentId}`,
  walletSummary: (walletId: string): string => `summary:wallet:${walletId}`,
  bills: (lineOfCreditId: string): string => `bills:loc:${lineOfCreditId}`,
  billSummary: (lineOfCreditId: string): string => `bills-summary:loc:${lineOfCreditId}`,
  payments: (walletId: string): string => `payments:wallet:${walletId}`,
  /** an environment's payments read whole, without the `wallet_id` filter (streams/environment-payments.ts) */
  environmentPayments: (environmentId: string): string => `payments:env:${environmentId}`,
  ledger: (walletId: string): string => `ledger:wallet:${walletId}`,
  paymentsById: (walletId: string, purpose: 'orphans' | 'open'): string => `payments:byid-${purpose}:${walletId}`,
  /** a wallet's payments before the window, swept by list when many orphans name them (streams/payments-by-id.ts) */
  paymentsHistory: (walletId: string): string => `payments:history:${walletId}`,
  /** a wallet's payments of a bill period outside the window, for the bill's tie (streams/bill-period-payments.ts) */
  billPeriodPayments: (walletId: string, range: TimeRange): string => `payments:bill-period:${walletId}:${range.from ?? ''}_${range.to ?? ''}`,
  /** one time slice of a wallet's payments or ledger stream (time-slices.ts) */
  slice: (parent: string, index: number, count: number): string => `${parent}:slice-${index + 1}-of-${count}`,
} as const;

/**
 * What a payments stream saves: where to resume (`next`, null = done), or — for a wallet split
 * into time slices — the plan, each slice then being a stream of its own.
 */
export type PaymentsPosition = { next: SweepPosition | null; slices?: undefined } | { slices: TimeRange[]; next?: undefined };
/**
 * What an environment's payments stream saves before its slices start: the plan (its time slices,
 * each a stream of its own that saves a `PaymentsSlicePosition`). Its presence is also the decision:
 * a resumed run reads that environment whole again, whatever the counts say now.
 */
export type EnvironmentPaymentsPosition = { slices: TimeRange[] };
/** What one slice of a payments stream saves: where to resume, and the range it sweeps. */
export type PaymentsSlicePosition = { next: SweepPosition | null; range: TimeRange };
/**
 * What a ledger stream saves: the offset to resume at and the start_date it was asked with; or,
 * once split after its first page, the plan (the first slice continues at `startOffset`).
 */
export type LedgerPosition = { next: number | null; startDate: string | null; slices?: undefined } | { slices: LedgerSlice[]; startDate: string | null; next?: undefined };
export interface LedgerSlice {
  range: TimeRange;
  /** where the slice's chain starts (the first slice continues after the parent's first page) */
  startOffset: number;
}
/** What one slice of a ledger stream saves. */
export type LedgerSlicePosition = { next: number | null; range: TimeRange };
/** What a bills stream saves: where to resume (null = done) and the distinct bills listed so far. */
export type BillsPosition = { next: string | null; listed: number };
/** What a wallet summary saves: its count and span, which size the wallet's chains on a resume. */
export type SummaryPosition = { totalCount?: number; oldest?: string | null; newest?: string | null };

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
