/**
 * The pull stage: every stream of the plan through one bounded pool of chains, each chain strictly
 * sequential, every request under the run's one limiter (inside the API client). Pages flow to the
 * snapshot writer one at a time — nothing collects a whole stream — and every page is a resume point.
 *
 * Phases: (1) the summaries: one request per wallet and environment, whose counts size the chains;
 * (2) payments and ledger chains, the longest first, a huge wallet split into time slices so that no
 * chain outlasts the rest of the run; as soon as all of one wallet's chains are done, its payments
 * read by id: the ones a ledger entry names but no list returned, and (for the nightly) the
 * still-open payments of the snapshot, so late completions are caught. Starting those per wallet,
 * not after every wallet, keeps their queries and requests inside the run instead of after it.
 */
import type { UtcInstant, WalletRow } from '../model/rows.js';
import type { Window } from '../model/window.js';
import { instantFromDate } from '../model/instant.js';
import { pullBills } from './bills.js';
import { pullPaymentsById } from './by-id.js';
import type { ExtractContext, StreamProgress } from './context.js';
import { finishSlicedLedger, pullLedgerChain, pullWalletLedger, type LedgerChain } from './ledgers.js';
import { finishSlicedPayments, planPayments, pullPaymentsChain, type PaymentsChain } from './payments.js';
import { pullEnvironmentSummary, pullWalletSummary, type WalletCount } from './summaries.js';
import { WorkQueue } from './work-queue.js';

export interface PullPlan {
  wallets: readonly WalletRow[];
  /** the wallets whose lines of credit's bills are read (every wallet in scope, all shards; default `wallets`) */
  billWallets?: readonly WalletRow[];
  /** environments whose summary is read (only an unsharded run or shard 0 reads them) */
  summaryEnvironments: readonly string[];
  /** the report window: summaries are asked for exactly this */
  window: Window;
  /** the payments sweep: the window, widened by the look-back for the nightly */
  paymentWindow: Window;
  /** the ledger's start per wallet (null = whole history) */
  ledgerStart(wallet: WalletRow): Promise<string | null>;
  /** payment ids named by ledger entries of the window that the snapshot does not hold */
  orphanPaymentIds(wallet: WalletRow): Promise<string[]>;
  /** still-open payments of the snapshot to re-read (nightly); undefined = no refresh */
  openPaymentIds?: (wallet: WalletRow) => Promise<string[]>;
  /** chains open at once (each holds at most one request in flight) */
  width: number;
  /**
   * The longest chain, in pages, before a wallet's payments or ledger are split into time slices.
   * Default: adaptive — 1/(2·width) of the run's estimated pages, at least MIN_CHAIN_PAGES. 0 = never split.
   */
  maxChainPages?: number;
  /** the run's clock: ledger slices are spread up to it (default: the system clock) */
  now?: UtcInstant;
}

export interface PullResult {
  streams: StreamProgress[];
  duplicates: number;
  /** ids read by id that the service answered 404 for */
  missingPaymentIds: string[];
}

/** Below this many pages a chain is never split: each slice costs at least one extra request. */
export const MIN_CHAIN_PAGES = 10;
/** Ledger entries per payment, for ordering chains before the ledger's first page tells its size. */
const LEDGER_ENTRIES_PER_PAYMENT = 1.5;

type Unit =
  | { kind: 'payments'; chain: PaymentsChain; group: SliceGroup | null }
  | { kind: 'ledger'; wallet: WalletRow }
  | { kind: 'ledger-slice'; chain: LedgerChain; group: SliceGroup }
  | { kind: 'by-id'; wallet: WalletRow };

/** By-id reads go first once a wallet is ready: they are short, and the run's end should not wait on them. */
const BY_ID_PRIORITY = Number.MAX_SAFE_INTEGER;

/** The slices of one split stream: the stream is marked done when the last one is. */
interface SliceGroup {
  remaining: number;
  finish(): Promise<StreamProgress>;
}

export async function pull(ctx: ExtractContext, plan: PullPlan): Promise<PullResult> {
  const streams: StreamProgress[] = [];
  const counts = await pullSummaries(ctx, plan, streams);

  const budgetPages = chainBudgetPages(plan, counts, ctx.pageSize);
  const maxChainItems = budgetPages * ctx.pageSize;
  const now = plan.now ?? instantFromDate(new Date());
  const missing: string[] = [];
  // chains still running per wallet; its reads by id start when the count reaches zero
  const pending = new Map<string, number>();
  const queue: WorkQueue<Unit> = new WorkQueue(plan.width, run, ctx.signal);
  const chainDone = (wallet: WalletRow): void => {
    const left = (pending.get(wallet.wallet_id) ?? 1) - 1;
    pending.set(wallet.wallet_id, left);
    if (left === 0) queue.push({ kind: 'by-id', wallet }, BY_ID_PRIORITY);
  };
  async function run(unit: Unit): Promise<void> {
    switch (unit.kind) {
      case 'payments': {
        streams.push(await pullPaymentsChain(ctx, unit.chain));
        if (unit.group && --unit.group.remaining === 0) streams.push(await unit.group.finish());
        return chainDone(unit.chain.wallet);
      }
      case 'ledger': {
        const wallet = unit.wallet;
        const outcome = await pullWalletLedger(ctx, { wallet, startDate: await plan.ledgerStart(wallet), maxChainItems, now });
        if (outcome.slices === null) {
          streams.push(outcome.progress);
          return chainDone(wallet);
        }
        const { slices, startDate, progress } = outcome;
        const group: SliceGroup = { remaining: slices.length, finish: () => finishSlicedLedger(ctx, progress, slices, startDate) };
        // the slices replace this unit in the wallet's count
        pending.set(wallet.wallet_id, (pending.get(wallet.wallet_id) ?? 0) + slices.length - 1);
        for (const chain of slices) queue.push({ kind: 'ledger-slice', chain, group }, budgetPages);
        return;
      }
      case 'ledger-slice': {
        streams.push(await pullLedgerChain(ctx, unit.chain));
        if (--unit.group.remaining === 0) streams.push(await unit.group.finish());
        return chainDone(unit.chain.wallet);
      }
      case 'by-id': {
        const { wallet } = unit;
        const orphans = await plan.orphanPaymentIds(wallet);
        if (orphans.length > 0) {
          const result = await pullPaymentsById(ctx, wallet, orphans, 'orphans');
          streams.push(result);
          missing.push(...result.missing);
        }
        if (plan.openPaymentIds) {
          const open = await plan.openPaymentIds(wallet);
          if (open.length > 0) streams.push(await pullPaymentsById(ctx, wallet, open, 'open'));
        }
        return;
      }
    }
  }

  const scale = durationOf(plan.paymentWindow) / Math.max(1, durationOf(plan.window));
  const sameWindow = plan.paymentWindow.from === plan.window.from && plan.paymentWindow.to === plan.window.to;
  for (const wallet of plan.wallets) {
    const count = counts.get(wallet.wallet_id) ?? null;
    const expected = count?.totalCount == null ? null : Math.ceil(count.totalCount * scale);
    const span = sameWindow && count?.oldest && count.newest ? { from: count.oldest, to: count.newest } : null;
    const planned = await planPayments(ctx, { wallet, window: plan.paymentWindow, expected, span, maxChainItems });
    const sliced = planned.chains.length > 1 || (planned.chains[0]?.slice ?? false);
    const group: SliceGroup | null = sliced
      ? { remaining: planned.chains.length, finish: () => finishSlicedPayments(ctx, planned.parent, planned.chains.map((c) => c.range)) }
      : null;
    pending.set(wallet.wallet_id, planned.chains.length + 1);
    const pagesEach = Math.ceil((expected ?? ctx.pageSize) / Math.max(1, planned.chains.length) / ctx.pageSize);
    for (const chain of planned.chains) queue.push({ kind: 'payments', chain, group }, pagesEach + 1);
    queue.push({ kind: 'ledger', wallet }, Math.ceil(((expected ?? 0) * LEDGER_ENTRIES_PER_PAYMENT) / ctx.pageSize) + 1);
  }
  await queue.drain();

  streams.sort((a, b) => (a.stream < b.stream ? -1 : a.stream > b.stream ? 1 : 0));
  return { streams, duplicates: streams.reduce((n, s) => n + s.duplicates, 0), missingPaymentIds: missing.sort() };
}

/**
 * Phase 1: one request per environment and wallet, all in parallel; the wallets' counts come back.
 * The bills of each line of credit of the wallets (a short cursor chain and its summary) are read
 * alongside by whoever reads the environment summaries (an unsharded run or shard 0).
 */
async function pullSummaries(ctx: ExtractContext, plan: PullPlan, streams: StreamProgress[]): Promise<Map<string, WalletCount>> {
  const counts = new Map<string, WalletCount>();
  type Unit = { kind: 'env'; environmentId: string } | { kind: 'wallet'; wallet: WalletRow } | { kind: 'bills'; lineOfCreditId: string; environmentId: string };
  const queue = new WorkQueue<Unit>(
    plan.width,
    async (unit) => {
      if (unit.kind === 'env') {
        streams.push(await pullEnvironmentSummary(ctx, unit.environmentId, plan.window));
        return;
      }
      if (unit.kind === 'bills') {
        streams.push(...(await pullBills(ctx, unit)));
        return;
      }
      const { count, ...progress } = await pullWalletSummary(ctx, unit.wallet, plan.window);
      counts.set(unit.wallet.wallet_id, count);
      streams.push(progress);
    },
    ctx.signal,
  );
  for (const environmentId of plan.summaryEnvironments) queue.push({ kind: 'env', environmentId }, 0);
  if (plan.summaryEnvironments.length > 0) {
    const lines = new Map<string, string>();
    for (const w of plan.billWallets ?? plan.wallets) if (w.line_of_credit_id !== null && !lines.has(w.line_of_credit_id)) lines.set(w.line_of_credit_id, w.environment_id);
    for (const [lineOfCreditId, environmentId] of [...lines].sort(([a], [b]) => (a < b ? -1 : 1))) queue.push({ kind: 'bills', lineOfCreditId, environmentId }, 0);
  }
  for (const wallet of plan.wallets) queue.push({ kind: 'wallet', wallet }, 0);
  await queue.drain();
  return counts;
}

/**
 * The longest chain before a split. A chain shares the request slots with `width − 1` others, so a
 * chain longer than the run's pages / width would outlast the run; half of that keeps the end of
 * the run full. Unknown counts make small estimates: the ledger re-checks its size on its first page.
 */
export function chainBudgetPages(plan: Pick<PullPlan, 'maxChainPages' | 'width' | 'wallets'>, counts: ReadonlyMap<string, WalletCount>, pageSize: number): number {
  if (plan.maxChainPages !== undefined) return plan.maxChainPages > 0 ? plan.maxChainPages : Number.POSITIVE_INFINITY;
  let pages = 0;
  for (const wallet of plan.wallets) {
    const expected = counts.get(wallet.wallet_id)?.totalCount ?? 0;
    pages += 1 + Math.ceil(expected / pageSize) + Math.ceil((expected * LEDGER_ENTRIES_PER_PAYMENT) / pageSize);
  }
  return Math.max(MIN_CHAIN_PAGES, Math.ceil(pages / (2 * Math.max(1, plan.width))));
}

function durationOf(window: Window): number {
  return Date.parse(`${window.to.slice(0, 19)}Z`) - Date.parse(`${window.from.slice(0, 19)}Z`);
}
