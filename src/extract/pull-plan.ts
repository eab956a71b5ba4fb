/**
 * What a job asks the pull for (`PullPlan`), and what every stream sees while it plans its slices
 * (`PullScope`): the plan, the wallets' counts the sizing streams learned, the chain budget.
 */
import type { InstantRange } from '../model/bill-period.js';
import type { UtcInstant, WalletRow } from '../model/rows.js';
import type { Window } from '../model/window.js';
import type { TimeRange } from './time-slices.js';

export interface PullPlan {
  wallets: readonly WalletRow[];
  /** the wallets whose lines of credit's bills are read (every wallet in scope, all shards; default `wallets`) */
  billWallets?: readonly WalletRow[];
  /** environments whose summary is read (only an unsharded run or shard 0 reads them) */
  summaryEnvironments: readonly string[];
  /**
   * Environments every wallet of which this run pulls (no `--wallet` filter, no `--shard`): their
   * payments may be read with one environment-level read instead of one per wallet, when that takes
   * fewer requests (streams/environment-payments.ts). Absent or empty = per wallet only.
   */
  wholeEnvironments?: readonly string[];
  /** `always`: read every one of `wholeEnvironments` whole, whatever the counts (default: when it takes fewer requests) */
  readWhole?: 'always' | 'when-fewer';
  /** the report window: summaries are asked for exactly this */
  window: Window;
  /** the payments sweep: the window, widened by the look-back for the nightly */
  paymentWindow: Window;
  /** the ledger's start per wallet (null = whole history) */
  ledgerStart(wallet: WalletRow): Promise<string | null>;
  /** payment ids named by ledger entries of the window that the snapshot does not hold */
  orphanPaymentIds(wallet: WalletRow): Promise<string[]>;
  /**
   * When a wallet's orphans reach back before the window (the lots replay's history, a first
   * close): the creation range a list sweep covers instead of reading them one by one, when they
   * are more than a page (streams/payments-by-id.ts). Null or absent = by id only.
   */
  orphanSweep?: (wallet: WalletRow) => TimeRange | null;
  /**
   * The creation ranges beyond the payments sweep whose payments of this wallet the bills tied by
   * the report need (model/bill-period.ts), asked once the sizing stage has stored the bills.
   * Absent or empty = none (streams/bill-period-payments.ts).
   */
  billPeriodPayments?: (wallet: WalletRow) => Promise<readonly InstantRange[]>;
  /** still-open payments of the snapshot to re-read (nightly); undefined = no refresh */
  openPaymentIds?: (wallet: WalletRow) => Promise<string[]>;
  /** `--concurrency`: requests in flight at the service (the run's one limiter, inside the API client) */
  concurrency: number;
  /** chains open at once; default derived from `concurrency` and the page size (chain-budget.ts `chainWidth`) */
  width?: number;
  /**
   * The longest chain, in pages, before a wallet's payments or ledger are split into time slices.
   * Default: adaptive — 1/(2·width) of the run's estimated pages, at least MIN_CHAIN_PAGES. 0 = never split.
   */
  maxChainPages?: number;
  /** the run's clock: ledger slices are spread up to it (default: the system clock) */
  now?: UtcInstant;
  /**
   * Wallets are pulled in the order of `wallets` (the report's order) instead of the longest chain
   * first, so the report behind the pull (docs/extraction.md#the-report-behind-the-pull) finds them
   * complete in the order it renders them. Time slices still bound every chain.
   */
  inOrder?: boolean;
  /** called once the sizing stage (summaries, bills) is in the snapshot */
  onSized?: () => void;
  /** called once every `wallet` and `wallet-done` slice of this wallet is in the snapshot */
  onWalletComplete?: (wallet: WalletRow) => void;
}

/** What a wallet summary tells the planner: how many payments the window holds, and when. */
export interface WalletCount {
  /** null when unknown (a resumed run whose summary was saved without it) */
  totalCount: number | null;
  oldest: string | null;
  newest: string | null;
}

export interface PullScope {
  readonly plan: PullPlan;
  /** the wallet summaries' counts by wallet id: filled by the sizing streams, read by those after them */
  readonly counts: Map<string, WalletCount>;
  /** the environment summaries' counts by environment id: filled by the sizing streams */
  readonly environmentCounts: Map<string, WalletCount>;
  /**
   * environments whose payments the `environment` stage reads whole: filled by that stage, read by
   * the wallets' payments streams (which then read nothing)
   */
  readonly wholeReads: Set<string>;
  /** chains open at once (chain-budget.ts `chainWidth`) */
  readonly width: number;
  /** the longest chain in pages before a split (chain-budget.ts); known once the sizing streams are done */
  readonly budgetPages: number;
  /** `budgetPages` in items: a chain expected to hold more is split */
  readonly maxChainItems: number;
  /** the run's clock */
  readonly now: UtcInstant;
}

/**
 * Payments a wallet is expected to hold in the payments sweep: the summary counts the report
 * window, so a widened sweep (the nightly's look-back) scales it by duration. Null = unknown.
 */
export function expectedPayments(scope: PullScope, wallet: WalletRow): number | null {
  return sweepCount(scope, scope.counts.get(wallet.wallet_id));
}

/** A summary's count of the report window scaled to the payments sweep (null = unknown). */
export function sweepCount(scope: Pick<PullScope, 'plan'>, count: WalletCount | undefined): number | null {
  const { plan } = scope;
  const scale = durationOf(plan.paymentWindow) / Math.max(1, durationOf(plan.window));
  return count?.totalCount == null ? null : Math.ceil(count.totalCount * scale);
}

function durationOf(window: Window): number {
  return Date.parse(`${window.to.slice(0, 19)}Z`) - Date.parse(`${window.from.slice(0, 19)}Z`);
}
