/**
 * The pull stage: a scheduler of streams (stream.ts). Every slice of every stream runs through one
 * bounded pool of chains, each chain strictly sequential, every request under the run's one limiter
 * (inside the API client). Pages flow to the snapshot writer one at a time — nothing collects a
 * whole stream — and every page is a resume point.
 *
 * Stages: (1) `sizing` streams (the summaries: one request per wallet and environment, whose counts
 * size the chains; bills alongside); (2) the `environment` streams (the payments of environments read
 * whole, time-sliced, when that takes fewer requests than per wallet), drained before any wallet's
 * chains start, so that a wallet's payments are all in the snapshot before its reads by id; (3) each
 * wallet's `wallet` streams (payments and ledger chains),
 * the longest first, a huge wallet split into time slices so that no chain outlasts the rest of the
 * run; (4) as soon as all of one wallet's chains are done, its `wallet-done` streams (payments read
 * by id: the ones a ledger entry names but no list returned, and for the nightly the still-open
 * payments of the snapshot). Starting those per wallet, not after every wallet, keeps their queries
 * and requests inside the run instead of after it. A wallet is complete when its `wallet-done`
 * slices are done too: `onWalletComplete` tells the report behind the pull it may read that wallet.
 */
import type { WalletRow } from '../model/rows.js';
import { instantFromDate } from '../model/instant.js';
import { chainBudgetPages, chainWidth } from './chain-budget.js';
import type { ExtractContext, StreamProgress } from './context.js';
import type { PullPlan, PullScope, WalletCount } from './pull-plan.js';
import type { RunStream, SliceSet, Stream, WalletStream } from './stream.js';
import { PULL_STREAMS } from './streams/index.js';
import { WorkQueue } from './work-queue.js';

export interface PullResult {
  streams: StreamProgress[];
  duplicates: number;
  /** ids read by id that the service answered 404 for */
  missingPaymentIds: string[];
}

/** One slice on the queue, with what the scheduler tracks around it. */
interface Unit {
  stream: Stream<unknown>;
  scope: PullScope;
  slice: unknown;
  /** the split stream the slice is a part of */
  group: Group | null;
  /** the wallet this slice belongs to (a `wallet` or `wallet-done` slice) */
  wallet: WalletRow | null;
}

interface Group {
  remaining: number;
  finish: () => Promise<StreamProgress>;
}

/** Where a wallet stands: its `wallet` chains, then its `wallet-done` reads, each counted down to zero. */
interface WalletState {
  phase: 'chains' | 'done';
  left: number;
}

export async function pull(ctx: ExtractContext, plan: PullPlan, streams: ReadonlyArray<Stream<unknown>> = PULL_STREAMS): Promise<PullResult> {
  const progress: StreamProgress[] = [];
  const missing: string[] = [];
  const width = plan.width ?? chainWidth(plan.concurrency, ctx.pageSize);
  const now = plan.now ?? instantFromDate(new Date());
  const counts = new Map<string, WalletCount>();
  const environmentCounts = new Map<string, WalletCount>();
  const wholeReads = new Set<string>();
  const runStreams = (stage: RunStream<unknown>['stage']): Array<RunStream<unknown>> => streams.filter((s): s is RunStream<unknown> => s.stage === stage);
  const walletStreams = (stage: WalletStream<unknown>['stage']): Array<WalletStream<unknown>> => streams.filter((s): s is WalletStream<unknown> => s.stage === stage);
  const states = new Map<string, WalletState>();
  // In report order, an earlier wallet's slices (its reads by id included) go before a later one's.
  const rank = new Map(plan.wallets.map((w, i) => [w.wallet_id, plan.wallets.length - i]));
  const priority = (size: number, wallet: WalletRow | null): number => (plan.inOrder === true && wallet !== null ? (rank.get(wallet.wallet_id) ?? 0) : size);

  const push = (stream: Stream<unknown>, scope: PullScope, set: SliceSet<unknown>, wallet: WalletRow | null): void => {
    const group = set.finish && set.slices.length > 0 ? { remaining: set.slices.length, finish: set.finish } : null;
    for (const { slice, size } of set.slices) queue.push({ stream, scope, slice, group, wallet }, priority(size, wallet));
  };
  // A wallet's `wallet-done` streams start once its chains are done; it is complete once they are too.
  const settle = async (scope: PullScope, wallet: WalletRow, state: WalletState): Promise<void> => {
    if (state.left > 0) return;
    if (state.phase === 'done') {
      plan.onWalletComplete?.(wallet);
      return;
    }
    state.phase = 'done';
    const sets: Array<[Stream<unknown>, SliceSet<unknown>]> = [];
    for (const stream of walletStreams('wallet-done')) sets.push([stream, await stream.slices(ctx, scope, wallet)]);
    state.left = sets.reduce((n, [, set]) => n + set.slices.length, 0);
    for (const [stream, set] of sets) push(stream, scope, set, wallet);
    if (state.left === 0) plan.onWalletComplete?.(wallet);
  };
  const run = async (unit: Unit): Promise<void> => {
    const outcome = await unit.stream.read(ctx, unit.scope, unit.slice);
    progress.push(...outcome.progress);
    missing.push(...(outcome.missingPaymentIds ?? []));
    const state = unit.wallet ? states.get(unit.wallet.wallet_id) : undefined;
    if (outcome.split) {
      // the parts replace this slice in its wallet's count
      if (state) state.left += outcome.split.slices.length;
      push(unit.stream, unit.scope, outcome.split, unit.wallet);
    }
    if (unit.group && --unit.group.remaining === 0) progress.push(await unit.group.finish());
    if (unit.wallet && state) {
      state.left--;
      await settle(unit.scope, unit.wallet, state);
    }
  };

  // one pool for every stage: drained after the sizing stage, then filled again
  const queue = new WorkQueue<Unit>(width, run, ctx.signal);

  // Stage 1: the sizing streams, all at once.
  const sizing: PullScope = { plan, counts, environmentCounts, wholeReads, width, budgetPages: Number.POSITIVE_INFINITY, maxChainItems: Number.POSITIVE_INFINITY, now };
  for (const stream of runStreams('sizing')) push(stream, sizing, await stream.slices(ctx, sizing), null);
  await queue.drain();
  plan.onSized?.();

  const budgetPages = chainBudgetPages({ ...(plan.maxChainPages !== undefined ? { maxChainPages: plan.maxChainPages } : {}), width, wallets: plan.wallets }, counts, ctx.pageSize);
  const scope: PullScope = { plan, counts, environmentCounts, wholeReads, width, budgetPages, maxChainItems: budgetPages * ctx.pageSize, now };

  // Stage 2: the environments read whole; their wallets' payments streams then read nothing.
  for (const stream of runStreams('environment')) push(stream, scope, await stream.slices(ctx, scope), null);
  await queue.drain();

  // Stages 3 and 4: every wallet's chains (longest first, or in report order); its reads by id once they are done.
  for (const wallet of plan.wallets) {
    const sets: Array<[Stream<unknown>, SliceSet<unknown>]> = [];
    for (const stream of walletStreams('wallet')) sets.push([stream, await stream.slices(ctx, scope, wallet)]);
    const state: WalletState = { phase: 'chains', left: sets.reduce((n, [, set]) => n + set.slices.length, 0) };
    states.set(wallet.wallet_id, state);
    for (const [stream, set] of sets) push(stream, scope, set, wallet);
    await settle(scope, wallet, state);
  }
  await queue.drain();

  progress.sort((a, b) => (a.stream < b.stream ? -1 : a.stream > b.stream ? 1 : 0));
  return { streams: progress, duplicates: progress.reduce((n, s) => n + s.duplicates, 0), missingPaymentIds: missing.sort() };
}
