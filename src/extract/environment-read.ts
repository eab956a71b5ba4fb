/**
 * When an environment's payments are read whole (one environment-level read, time-sliced) rather
 * than one read per wallet: never read per wallet what one environment-level read already returns
 * (docs/extraction.md#environment-level-payments). Pure: counts in, a plan out.
 *
 * Per wallet, each wallet costs at least one request, however few payments it holds; read whole,
 * the environment costs its pages plus, at most, one short last page per time slice. The slices keep
 * the chains busy (every slice is a sequential chain): the environments' pages are shared out over
 * `width` chains, never a slice shorter than MIN_CHAIN_PAGES (each costs up to one extra request).
 */
import { MIN_CHAIN_PAGES } from './chain-budget.js';
import { MAX_SLICES } from './time-slices.js';

export interface EnvironmentReadInput {
  /** payments each wallet of the environment is expected to hold in the sweep (null = unknown) */
  walletPayments: ReadonlyArray<number | null>;
  /** payments the environment is expected to hold in the sweep (null = unknown) */
  environmentPayments: number | null;
  /** the page asked */
  pageSize: number;
  /** time slices the environment-level read would be cut into */
  slices: number;
}

/** Requests of the per-wallet reads: a wallet of unknown count costs at least its one request. */
export function perWalletRequests(input: Pick<EnvironmentReadInput, 'walletPayments' | 'pageSize'>): number {
  return input.walletPayments.reduce<number>((n, count) => n + Math.max(1, Math.ceil((count ?? 0) / input.pageSize)), 0);
}

/** Requests of the environment-level read: its pages, and one short page more per slice at worst. */
export function environmentRequests(input: Pick<EnvironmentReadInput, 'environmentPayments' | 'pageSize' | 'slices'>): number | null {
  if (input.environmentPayments === null) return null;
  return Math.ceil(input.environmentPayments / input.pageSize) + Math.max(1, input.slices);
}

/** Read whole only when it is known to take fewer requests (an unknown count keeps per-wallet reads). */
export function readsWhole(input: EnvironmentReadInput): boolean {
  const whole = environmentRequests(input);
  return whole !== null && whole < perWalletRequests(input);
}

/**
 * Time slices of each environment read whole: the run's `width` chains shared out by pages, at
 * least one per environment, no slice shorter than MIN_CHAIN_PAGES, at most MAX_SLICES.
 */
export function environmentSlices(pagesByEnvironment: ReadonlyArray<number>, width: number): number[] {
  const total = pagesByEnvironment.reduce((a, b) => a + b, 0);
  return pagesByEnvironment.map((pages) => {
    const share = total === 0 ? 1 : Math.round((Math.max(1, width) * pages) / total);
    return Math.max(1, Math.min(MAX_SLICES, share, Math.floor(pages / MIN_CHAIN_PAGES)));
  });
}
