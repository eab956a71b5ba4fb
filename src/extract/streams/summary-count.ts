/**
 * What a payment summary (a wallet's or an environment's) tells the planner — its count and span —
 * and how that is saved in the summary's checkpoint, so a resumed run plans with the same numbers.
 */
import { toUtcInstant } from '../../model/instant.js';
import type { Checkpoint } from '../../model/ports.js';
import { decodePosition, encodePosition, type SummaryPosition } from '../positions.js';
import type { WalletCount } from '../pull-plan.js';

export function countOfSummary(raw: { total_count?: unknown; oldest_created_at?: unknown; newest_created_at?: unknown }): WalletCount {
  return {
    totalCount: typeof raw.total_count === 'number' ? raw.total_count : typeof raw.total_count === 'bigint' ? Number(raw.total_count) : null,
    oldest: typeof raw.oldest_created_at === 'string' ? toUtcInstant(raw.oldest_created_at) : null,
    newest: typeof raw.newest_created_at === 'string' ? toUtcInstant(raw.newest_created_at) : null,
  };
}

export function summaryPosition(count: WalletCount): string {
  return encodePosition({ ...(count.totalCount !== null ? { totalCount: count.totalCount } : {}), oldest: count.oldest, newest: count.newest } satisfies SummaryPosition);
}

/** A checkpoint saved without a count (an older release's) gives an unknown count. */
export function savedCount(saved: Checkpoint): WalletCount {
  const position = decodePosition<SummaryPosition>(saved);
  return { totalCount: position?.totalCount ?? null, oldest: position?.oldest ?? null, newest: position?.newest ?? null };
}
