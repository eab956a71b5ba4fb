/**
 * The ledger stream of one wallet: offset pages over a stable sort (effective_time ascending, so
 * new events append at the end and saved offsets stay valid). The whole history is read the first
 * time — the roll-forward's opening balance needs every entry before the window — and later runs
 * may start from a high-water mark minus the look-back (`startDate`); upserts make the overlap harmless.
 *
 * A huge ledger is split after its first page, when the page's `total` shows it holds more than
 * `maxChainItems` entries: the first slice continues the chain (same order, now bounded above), the
 * rest of the time up to now is cut into slices of their own. No summary counts ledger entries, so
 * the first page is the cheapest place to learn the size.
 *
 * A chain an earlier, failed attempt of this run read to the ledger's open end is not taken as
 * complete past the window's end: the balance is read afresh, so the tail is too (ledger-tail.ts).
 */
import { ledgerEventKey, ledgerPages } from '../../api/endpoints.js';
import { SweepDeduper } from '../../api/paginate.js';
import type { WireLedgerEvent } from '../../api/wire/ledger.js';
import type { WalletRow } from '../../model/rows.js';
import { toUtcInstant } from '../../model/instant.js';
import { LEDGER_ENTRIES_PER_PAYMENT } from '../chain-budget.js';
import type { ExtractContext, StreamProgress } from '../context.js';
import { expectedPayments, type PullScope } from '../pull-plan.js';
import type { ReadOutcome, WalletStream } from '../stream.js';
import { decodePosition, encodePosition, streamName, type LedgerPosition, type LedgerSlice, type LedgerSlicePosition } from '../positions.js';
import { nextWholeSecond, rangeFilters, splitRange } from '../time-slices.js';
import { acceptPage, writePageBehind } from '../stream-page.js';
import { WriteBehind } from '../write-behind.js';
import { rereadLedgerTail } from './ledger-tail.js';

interface LedgerStreamOptions {
  wallet: WalletRow;
  /** inclusive lower bound on effective time; null = the whole history */
  startDate: string | null;
  /** split a fresh stream whose first page reports more entries than this (default: never) */
  maxChainItems?: number;
  /** the upper end of the time the slices are spread over (the run's clock) */
  now?: string;
  /** the report window's end: where the balance bridge's movements start */
  windowEnd: string;
}

/** One sequential chain of ledger pages: one slice of a split wallet ledger. */
export interface LedgerChain {
  wallet: WalletRow;
  stream: string;
  slice: LedgerSlice;
}

/** The stream's outcome: done, or split into slices that the caller runs as chains of their own. */
type LedgerOutcome = { progress: StreamProgress; slices: null } | { progress: StreamProgress; slices: LedgerChain[]; startDate: string | null };

async function pullWalletLedger(ctx: ExtractContext, options: LedgerStreamOptions): Promise<LedgerOutcome> {
  const { wallet } = options;
  const stream = streamName.ledger(wallet.wallet_id);
  const saved = ctx.resume.get(stream);
  const progress: StreamProgress = { stream, pages: saved?.pages ?? 0, rows: saved?.rows ?? 0, duplicates: 0, done: saved?.done ?? false };
  if (saved?.done) return { progress: await rereadLedgerTail(ctx, wallet, saved, progress, options.windowEnd), slices: null };

  const position = decodePosition<LedgerPosition>(saved);
  if (position?.slices) return { progress, slices: ledgerChains(wallet, stream, position.slices), startDate: position.startDate };
  // Offsets only mean something for the filter they were read with: resume with the saved start.
  const startDate = position ? position.startDate : options.startDate;
  const fresh = position?.next == null;
  const deduper = new SweepDeduper();
  const writes = new WriteBehind();
  const pages = ledgerPages(ctx.apiFor(wallet.environment_id), {
    organizationId: ctx.organizationId,
    walletId: wallet.wallet_id,
    filters: { sortKey: 'effective_time', sortOrder: 'ASC', ...(startDate ? { startDate } : {}) },
    limit: ctx.pageSizes?.ledger ?? ctx.pageSize,
    ...(position?.next != null ? { start: position.next } : {}),
  });
  try {
    for await (const page of pages) {
      if (ctx.signal?.aborted) throw ctx.signal.reason;
      const rows = acceptPage(progress, deduper, page, ledgerEventKey, (raw) => ctx.normalize.ledger(raw, wallet));
      const slices = fresh && page.index === 0 && page.next !== null ? planLedgerSlices(options, startDate, page.items, page.next, page.total) : null;
      const position = encodePosition(slices ? ({ slices, startDate } satisfies LedgerPosition) : ({ next: page.next, startDate } satisfies LedgerPosition));
      await writePageBehind(ctx, writes, progress, position, rows, (batch, checkpoint) => ctx.writer.writeLedgerPage(batch, checkpoint));
      if (slices) {
        // the plan is durable before any slice saves a checkpoint of its own
        await writes.flush();
        ctx.log.debug({ stream, slices: slices.length, total: page.total }, 'ledger stream split into time slices');
        return { progress, slices: ledgerChains(wallet, stream, slices), startDate };
      }
    }
    await writes.flush();
  } finally {
    await writes.settle();
  }
  progress.done = true;
  return { progress, slices: null };
}

/**
 * After the first page: slices when the ledger is larger than the chain budget. The first slice
 * runs up to the first whole second after the page's last entry — so the page lies inside it and
 * its chain continues at the page's end — and the rest, up to `now`, is split evenly; the last
 * slice stays open so entries that arrive meanwhile are read too.
 */
function planLedgerSlices(options: LedgerStreamOptions, startDate: string | null, items: readonly WireLedgerEvent[], next: number, total: number | undefined): LedgerSlice[] | null {
  const budget = options.maxChainItems;
  if (budget === undefined || total === undefined || total <= budget || options.now === undefined) return null;
  const last = items.length > 0 ? effectiveTimeOf(items[items.length - 1]!) : null;
  if (last === null) return null;
  const firstEnd = nextWholeSecond(last);
  if (firstEnd >= options.now) return null;
  const parts = Math.ceil((total - next) / budget);
  const rest = splitRange({ from: firstEnd, to: null }, parts, { from: firstEnd, to: options.now });
  return [{ range: { from: startDate, to: firstEnd }, startOffset: next }, ...rest.map((range) => ({ range, startOffset: 0 }))];
}

function ledgerChains(wallet: WalletRow, parent: string, slices: readonly LedgerSlice[]): LedgerChain[] {
  return slices.map((slice, index) => ({ wallet, stream: streamName.slice(parent, index, slices.length), slice }));
}

/**
 * Marks a split ledger stream done once every slice is (its own rows: the first page; the slices
 * count theirs). The plan stays in the position, so the checkpoint still explains the slices.
 */
async function finishSlicedLedger(ctx: ExtractContext, own: StreamProgress, slices: readonly LedgerChain[], startDate: string | null): Promise<StreamProgress> {
  const progress = { ...own, done: true };
  const position = encodePosition({ slices: slices.map((c) => c.slice), startDate } satisfies LedgerPosition);
  await ctx.writer.writeLedgerPage([], { run_key: ctx.runKey, stream: own.stream, position, pages: own.pages, rows: own.rows, done: true });
  ctx.onProgress?.(progress);
  return progress;
}

async function pullLedgerChain(ctx: ExtractContext, chain: LedgerChain, windowEnd: string): Promise<StreamProgress> {
  const { wallet, stream, slice } = chain;
  const saved = ctx.resume.get(stream);
  const progress: StreamProgress = { stream, pages: saved?.pages ?? 0, rows: saved?.rows ?? 0, duplicates: 0, done: saved?.done ?? false };
  // the open slice (the last, unbounded above) read to the end by an earlier attempt: read the tail again
  if (saved?.done) return slice.range.to === null ? rereadLedgerTail(ctx, wallet, saved, progress, windowEnd) : progress;
  const position = decodePosition<LedgerSlicePosition>(saved);
  const start = position ? position.next : slice.startOffset;
  if (start === null) return { ...progress, done: true };
  const deduper = new SweepDeduper();
  const writes = new WriteBehind();
  const pages = ledgerPages(ctx.apiFor(wallet.environment_id), {
    organizationId: ctx.organizationId,
    walletId: wallet.wallet_id,
    filters: { sortKey: 'effective_time', sortOrder: 'ASC', ...rangeFilters(slice.range) },
    limit: ctx.pageSizes?.ledger ?? ctx.pageSize,
    ...(start > 0 ? { start } : {}),
  });
  try {
    for await (const page of pages) {
      if (ctx.signal?.aborted) throw ctx.signal.reason;
      const rows = acceptPage(progress, deduper, page, ledgerEventKey, (raw) => ctx.normalize.ledger(raw, wallet));
      const position = encodePosition({ next: page.next, range: slice.range } satisfies LedgerSlicePosition);
      await writePageBehind(ctx, writes, progress, position, rows, (batch, checkpoint) => ctx.writer.writeLedgerPage(batch, checkpoint));
    }
    await writes.flush();
  } finally {
    await writes.settle();
  }
  progress.done = true;
  return progress;
}

/** What the ledger stream schedules: a wallet's whole ledger (which may split after its first page), or one slice of it. */
export type LedgerUnit = { wallet: WalletRow; chain?: undefined } | { chain: LedgerChain; wallet?: undefined };

/**
 * The stream: one chain per wallet, sized from the wallet's payments until its first page tells the
 * ledger's size; a split ledger's slices are each sized at the chain budget.
 */
export const ledgerStream: WalletStream<LedgerUnit> = {
  name: 'ledger',
  stage: 'wallet',
  slices: async (ctx, scope, wallet) => ({ slices: [{ slice: { wallet }, size: Math.ceil(((expectedPayments(scope, wallet) ?? 0) * LEDGER_ENTRIES_PER_PAYMENT) / ctx.pageSize) + 1 }] }),
  read: readLedger,
};

async function readLedger(ctx: ExtractContext, scope: PullScope, unit: LedgerUnit): Promise<ReadOutcome<LedgerUnit>> {
  const windowEnd = scope.plan.window.to;
  if (unit.chain) return { progress: [await pullLedgerChain(ctx, unit.chain, windowEnd)] };
  const { wallet } = unit;
  const outcome = await pullWalletLedger(ctx, { wallet, startDate: await scope.plan.ledgerStart(wallet), maxChainItems: scope.maxChainItems, now: scope.now, windowEnd });
  if (outcome.slices === null) return { progress: [outcome.progress] };
  const { slices, startDate, progress } = outcome;
  return {
    progress: [],
    split: { slices: slices.map((chain) => ({ slice: { chain }, size: scope.budgetPages })), finish: () => finishSlicedLedger(ctx, progress, slices, startDate) },
  };
}

function effectiveTimeOf(event: WireLedgerEvent): string | null {
  const raw = (event as unknown as Record<string, unknown>).effective_time;
  return typeof raw === 'string' ? toUtcInstant(raw) : null;
}
