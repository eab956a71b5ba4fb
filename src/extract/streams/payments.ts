/**
 * The payments stream of one wallet: cursor pages (the `wallet_id` filter lets wallets stream in
 * parallel), normalized
 * and written with the page's checkpoint in one step, so a killed run resumes after the last page
 * that is durably stored. De-duplicated by id within the sweep (a duplicate is counted, not written).
 *
 * A huge wallet is swept as several chains over disjoint creation-time slices (planPayments); the
 * plan is saved under the wallet's stream before any slice starts, so a resumed run reuses it.
 * A wallet whose environment the `environment` stage read whole reads nothing here
 * (environment-payments.ts): its payments are already in the snapshot.
 */
import { paymentPages, paymentKey } from '../../api/endpoints.js';
import { SweepDeduper, type SweepPosition } from '../../api/paginate.js';
import { ApiError } from '../../api/errors.js';
import type { PaymentRow, WalletRow } from '../../model/rows.js';
import type { Window } from '../../model/window.js';
import { expectedPayments, type PullScope } from '../pull-plan.js';
import type { SliceSet, WalletStream } from '../stream.js';
import type { ExtractContext, StreamProgress } from '../context.js';
import { decodePosition, encodePosition, streamName, type PaymentsPosition, type PaymentsSlicePosition } from '../positions.js';
import { rangeFilters, splitRange, type TimeRange } from '../time-slices.js';
import { acceptPage, writePageBehind } from '../stream-page.js';
import { WriteBehind } from '../write-behind.js';

/**
 * One sequential chain of payment pages: a wallet's whole window, or one slice of it; or one slice
 * of an environment read whole (environment-payments.ts), whose pages hold every wallet's payments.
 */
export interface PaymentsChain {
  environmentId: string;
  /** the `wallet_id` filter; null = the environment-level read */
  walletId: string | null;
  /**
   * an environment-level read keeps only the payments of these wallets (the run's): a wallet the
   * wallet list did not return is not pulled per wallet either, so the snapshot holds the same rows
   */
  keep?: ReadonlySet<string>;
  /**
   * only the rows this returns true for are written (uncounted otherwise): an environment-level
   * read of bill periods keeps each wallet's payments of its own bills' periods, as its own read would
   */
  wants?: (row: PaymentRow) => boolean;
  stream: string;
  range: TimeRange;
  /** a slice saves its range with its position */
  slice: boolean;
}

interface PaymentsPlanInput {
  wallet: WalletRow;
  window: Window;
  /** payments expected in the window (the wallet summary), null = unknown */
  expected: number | null;
  /** where the window's payments actually lie (the summary's oldest/newest), to spread slices over */
  span: { from: string; to: string } | null;
  /** split when more than this many payments are expected; each slice then holds about this many */
  maxChainItems: number;
}

/**
 * The chains of one wallet's payments: a resumed run's saved plan, else one chain, or time slices
 * when the wallet holds more than `maxChainItems` (the plan is saved first: a resume must sweep the
 * same slices, or pages saved for one slice would be resumed under another's filters).
 */
async function planPayments(ctx: ExtractContext, input: PaymentsPlanInput): Promise<{ parent: string; chains: PaymentsChain[] }> {
  const { wallet, window } = input;
  const parent = streamName.payments(wallet.wallet_id);
  const whole: PaymentsChain = { environmentId: wallet.environment_id, walletId: wallet.wallet_id, stream: parent, range: { from: window.from, to: window.to }, slice: false };
  const saved = ctx.resume.get(parent);
  const position = decodePosition<PaymentsPosition>(saved);
  if (saved?.done) return { parent, chains: [] };
  if (position?.slices) return { parent, chains: sliceChains(wallet, parent, position.slices) };
  if (saved || input.expected === null || input.expected <= input.maxChainItems) return { parent, chains: [whole] };

  const parts = Math.ceil(input.expected / input.maxChainItems);
  const span = input.span ? { from: maxOf(window.from, input.span.from), to: minOf(window.to, input.span.to) } : window;
  const slices = splitRange({ from: window.from, to: window.to }, parts, span.from < span.to ? span : window);
  if (slices.length < 2) return { parent, chains: [whole] };
  await ctx.writer.writePaymentsPage([], { run_key: ctx.runKey, stream: parent, position: encodePosition({ slices } satisfies PaymentsPosition), pages: 0, rows: 0, done: false });
  ctx.log.debug({ stream: parent, slices: slices.length, expected: input.expected }, 'payments stream split into time slices');
  return { parent, chains: sliceChains(wallet, parent, slices) };
}

function sliceChains(wallet: WalletRow, parent: string, slices: readonly TimeRange[]): PaymentsChain[] {
  return slices.map((range, index) => ({ environmentId: wallet.environment_id, walletId: wallet.wallet_id, stream: streamName.slice(parent, index, slices.length), range, slice: true }));
}

/** Marks a sliced wallet's stream done once every slice is (the slices count the rows; the plan stays). */
async function finishSlicedPayments(ctx: ExtractContext, parent: string, slices: readonly TimeRange[]): Promise<StreamProgress> {
  const progress = { stream: parent, pages: 0, rows: 0, duplicates: 0, done: true };
  await ctx.writer.writePaymentsPage([], { run_key: ctx.runKey, stream: parent, position: encodePosition({ slices: [...slices] } satisfies PaymentsPosition), pages: 0, rows: 0, done: true });
  ctx.onProgress?.(progress);
  return progress;
}

export async function pullPaymentsChain(ctx: ExtractContext, chain: PaymentsChain): Promise<StreamProgress> {
  const { environmentId, walletId, keep, stream, range } = chain;
  const saved = ctx.resume.get(stream);
  const progress: StreamProgress = { stream, pages: saved?.pages ?? 0, rows: saved?.rows ?? 0, duplicates: 0, done: saved?.done ?? false };
  if (progress.done) return progress;

  let start: SweepPosition | undefined = decodePosition<PaymentsSlicePosition>(saved)?.next ?? undefined;
  const deduper = new SweepDeduper();
  const writes = new WriteBehind();
  for (let attempt = 0; ; attempt++) {
    try {
      const pages = paymentPages(ctx.apiFor(environmentId), {
        organizationId: ctx.organizationId,
        environmentId,
        filters: { ...(walletId !== null ? { walletId } : {}), ...rangeFilters(range), sortKey: 'created_at', sortOrder: 'DESC' },
        limit: ctx.pageSizes?.payments ?? ctx.pageSize,
        ...(start ? { start } : {}),
      });
      for await (const page of pages) {
        if (ctx.signal?.aborted) throw ctx.signal.reason;
        const read = acceptPage(progress, deduper, page, paymentKey, (raw) => ctx.normalize.payment(raw, environmentId));
        const accepted = chain.wants ? wanted(progress, read, chain.wants) : read;
        const rows = keep ? inScope(ctx, stream, progress, accepted, keep) : accepted;
        const position = encodePosition(chain.slice ? ({ next: page.next, range } satisfies PaymentsSlicePosition) : ({ next: page.next } satisfies PaymentsPosition));
        await writePageBehind(ctx, writes, progress, position, rows, (batch, checkpoint) => ctx.writer.writePaymentsPage(batch, checkpoint));
        start = page.next ?? undefined;
      }
      await writes.flush();
      progress.done = true;
      return progress;
    } catch (error) {
      await writes.settle();
      // A saved cursor the service no longer accepts (expired, or the filters changed between
      // releases): start the sweep over. Upserts by id make the repeat harmless.
      if (attempt === 0 && start !== undefined && error instanceof ApiError && error.type === 'invalid_cursor') {
        ctx.log.warn({ stream }, 'saved cursor refused by the service; restarting the stream from its first page');
        start = undefined;
        // the sweep starts over: what the checkpoint counted is read (and upserted) again
        progress.pages = 0;
        progress.rows = 0;
        continue;
      }
      throw error;
    }
  }
}

/** The rows the chain wants; the others are not counted (never written). */
function wanted(progress: StreamProgress, rows: PaymentRow[], wants: (row: PaymentRow) => boolean): PaymentRow[] {
  const kept = rows.filter(wants);
  progress.rows -= rows.length - kept.length;
  return kept;
}

/** The rows of wallets the run pulls; the others are logged and not counted (never written). */
function inScope(ctx: ExtractContext, stream: string, progress: StreamProgress, rows: PaymentRow[], keep: ReadonlySet<string>): PaymentRow[] {
  const kept = rows.filter((row) => keep.has(row.wallet_id));
  if (kept.length < rows.length) {
    progress.rows -= rows.length - kept.length;
    ctx.log.warn({ stream, payments: rows.length - kept.length }, 'environment-level read returned payments of wallets outside the run; not pulled');
  }
  return kept;
}

/**
 * The stream: per wallet, its chains (one, or its time slices), each sized by the pages it is
 * expected to hold; a split wallet's stream is marked done when its last slice is.
 */
export const paymentsStream: WalletStream<PaymentsChain> = {
  name: 'payments',
  stage: 'wallet',
  slices: planWalletPayments,
  read: async (ctx, _scope, chain) => ({ progress: [await pullPaymentsChain(ctx, chain)] }),
};

async function planWalletPayments(ctx: ExtractContext, scope: PullScope, wallet: WalletRow): Promise<SliceSet<PaymentsChain>> {
  const { plan } = scope;
  // its environment was read whole by the `environment` stage (environment-payments.ts)
  if (scope.wholeReads.has(wallet.environment_id)) return { slices: [] };
  const count = scope.counts.get(wallet.wallet_id) ?? null;
  const expected = expectedPayments(scope, wallet);
  // the summary's span is of the report window: it only places slices of that same window
  const sameWindow = plan.paymentWindow.from === plan.window.from && plan.paymentWindow.to === plan.window.to;
  const span = sameWindow && count?.oldest && count.newest ? { from: count.oldest, to: count.newest } : null;
  const planned = await planPayments(ctx, { wallet, window: plan.paymentWindow, expected, span, maxChainItems: scope.maxChainItems });
  const sliced = planned.chains.length > 1 || (planned.chains[0]?.slice ?? false);
  const pagesEach = Math.ceil((expected ?? ctx.pageSize) / Math.max(1, planned.chains.length) / ctx.pageSize);
  return {
    slices: planned.chains.map((chain) => ({ slice: chain, size: pagesEach + 1 })),
    ...(sliced ? { finish: () => finishSlicedPayments(ctx, planned.parent, planned.chains.map((c) => c.range)) } : {}),
  };
}

function maxOf(a: string, b: string): string {
  return a > b ? a : b;
}

function minOf(a: string, b: string): string {
  return a < b ? a : b;
}
