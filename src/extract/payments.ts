/**
 * The payments stream of one wallet: cursor pages (the `wallet_id` filter lets wallets stream in
 * parallel; one chain per environment would cap a large pull at one request in flight), normalized
 * and written with the page's checkpoint in one step, so a killed run resumes after the last page
 * that is durably stored. De-duplicated by id within the sweep (a duplicate is counted, not written).
 */
import { paymentPages, paymentKey } from '../api/endpoints.js';
import { SweepDeduper, type SweepPosition } from '../api/paginate.js';
import { ApiError } from '../api/errors.js';
import type { WalletRow } from '../normalize/rows.js';
import { apiDateBounds } from '../util/time.js';
import type { Window } from '../store/ports.js';
import type { ExtractContext, StreamProgress } from './context.js';
import { decodePosition, encodePosition, streamName, type PaymentsPosition } from './streams.js';

export interface PaymentsStreamOptions {
  wallet: WalletRow;
  /** payments CREATED in this window (nightly widens it by the look-back) */
  window: Window;
}

export async function pullWalletPayments(ctx: ExtractContext, options: PaymentsStreamOptions): Promise<StreamProgress> {
  const { wallet, window } = options;
  const stream = streamName.payments(wallet.wallet_id);
  const saved = ctx.resume.get(stream);
  const progress: StreamProgress = { stream, pages: saved?.pages ?? 0, rows: saved?.rows ?? 0, duplicates: 0, done: saved?.done ?? false };
  if (progress.done) return progress;

  const bounds = apiDateBounds(window);
  let start: SweepPosition | undefined = decodePosition<PaymentsPosition>(saved)?.next ?? undefined;
  const deduper = new SweepDeduper();
  for (let attempt = 0; ; attempt++) {
    try {
      const pages = paymentPages(ctx.apiFor(wallet.environment_id), {
        organizationId: ctx.organizationId,
        environmentId: wallet.environment_id,
        filters: { walletId: wallet.wallet_id, startDate: bounds.start_date, endDate: bounds.end_date, sortKey: 'created_at', sortOrder: 'DESC' },
        limit: ctx.pageSize,
        ...(start ? { start } : {}),
      });
      for await (const page of pages) {
        if (ctx.signal?.aborted) throw ctx.signal.reason;
        const fresh = deduper.unique(page.items, paymentKey);
        progress.duplicates += page.items.length - fresh.length;
        const rows = fresh.map((raw) => ctx.normalize.payment(raw, wallet.environment_id));
        progress.pages++;
        progress.rows += rows.length;
        progress.done = page.next === null;
        await ctx.writer.writePaymentsPage(rows, {
          run_key: ctx.runKey,
          stream,
          position: encodePosition({ next: page.next } satisfies PaymentsPosition),
          pages: progress.pages,
          rows: progress.rows,
          done: progress.done,
        });
        start = page.next ?? undefined;
        ctx.onProgress?.(progress);
      }
      progress.done = true;
      return progress;
    } catch (error) {
      // A saved cursor the service no longer accepts (expired, or the filters changed between
      // releases): start the sweep over. Upserts by id make the repeat harmless.
      if (attempt === 0 && start !== undefined && error instanceof ApiError && error.type === 'invalid_cursor') {
        ctx.log.warn({ stream }, 'saved cursor refused by the service; restarting the stream from its first page');
        start = undefined;
        continue;
      }
      throw error;
    }
  }
}
