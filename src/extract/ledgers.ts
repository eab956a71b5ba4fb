/**
 * The ledger stream of one wallet: offset pages over a stable sort (effective_time ascending, so
 * new events append at the end and saved offsets stay valid). The whole history is read the first
 * time — the roll-forward's opening balance needs every entry before the window — and later runs
 * may start from a high-water mark minus the look-back (`startDate`); upserts make the overlap harmless.
 */
import { ledgerEventKey, ledgerPages } from '../api/endpoints.js';
import { SweepDeduper } from '../api/paginate.js';
import type { WalletRow } from '../normalize/rows.js';
import type { ExtractContext, StreamProgress } from './context.js';
import { decodePosition, encodePosition, streamName, type LedgerPosition } from './streams.js';

export interface LedgerStreamOptions {
  wallet: WalletRow;
  /** inclusive lower bound on effective time; null = the whole history */
  startDate: string | null;
}

export async function pullWalletLedger(ctx: ExtractContext, options: LedgerStreamOptions): Promise<StreamProgress> {
  const { wallet } = options;
  const stream = streamName.ledger(wallet.wallet_id);
  const saved = ctx.resume.get(stream);
  const progress: StreamProgress = { stream, pages: saved?.pages ?? 0, rows: saved?.rows ?? 0, duplicates: 0, done: saved?.done ?? false };
  if (progress.done) return progress;

  const position = decodePosition<LedgerPosition>(saved);
  // Offsets only mean something for the filter they were read with: resume with the saved start.
  const startDate = position ? position.startDate : options.startDate;
  const deduper = new SweepDeduper();
  const pages = ledgerPages(ctx.apiFor(wallet.environment_id), {
    organizationId: ctx.organizationId,
    walletId: wallet.wallet_id,
    filters: { sortKey: 'effective_time', sortOrder: 'ASC', ...(startDate ? { startDate } : {}) },
    limit: ctx.pageSize,
    ...(position?.next != null ? { start: position.next } : {}),
  });
  for await (const page of pages) {
    if (ctx.signal?.aborted) throw ctx.signal.reason;
    const fresh = deduper.unique(page.items, ledgerEventKey);
    progress.duplicates += page.items.length - fresh.length;
    const rows = fresh.map((raw) => ctx.normalize.ledger(raw, wallet));
    progress.pages++;
    progress.rows += rows.length;
    progress.done = page.next === null;
    await ctx.writer.writeLedgerPage(rows, {
      run_key: ctx.runKey,
      stream,
      position: encodePosition({ next: page.next, startDate } satisfies LedgerPosition),
      pages: progress.pages,
      rows: progress.rows,
      done: progress.done,
    });
    ctx.onProgress?.(progress);
  }
  progress.done = true;
  return progress;
}
