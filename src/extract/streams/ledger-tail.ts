/**
 * The ledger past the window's end, read again when a resumed run finds a wallet's ledger done.
 *
 * The balance bridge (src/reconcile/rollforward.ts) compares closing + the movements since the
 * window end with the API balance, which every run reads afresh in discovery. A ledger stream
 * checkpointed done by an earlier, failed attempt stopped where that attempt stopped: entries that
 * arrived since are missing from the movements while the balance counts them — a false 65. So a
 * chain that reached the ledger's open end in an earlier attempt reads [window end, now) again,
 * after this run's balance reading. Only that span: the history before the window end is still
 * taken from the checkpoints (a resume never re-pulls everything), and the overlap with what is
 * stored is absorbed by the upserts.
 *
 * The stream's checkpoint stays `done` with its position unchanged on every page written here: a
 * run killed during the tail resumes as before and simply reads the tail once more.
 */
import { ledgerEventKey, ledgerPages } from '../../api/endpoints.js';
import { SweepDeduper } from '../../api/paginate.js';
import type { WalletRow } from '../../model/rows.js';
import type { Checkpoint } from '../../model/ports.js';
import type { ExtractContext, StreamProgress } from '../context.js';
import { WriteBehind } from '../write-behind.js';

export async function rereadLedgerTail(ctx: ExtractContext, wallet: WalletRow, saved: Checkpoint, progress: StreamProgress, windowEnd: string): Promise<StreamProgress> {
  const deduper = new SweepDeduper();
  const writes = new WriteBehind();
  const pages = ledgerPages(ctx.apiFor(wallet.environment_id), {
    organizationId: ctx.organizationId,
    walletId: wallet.wallet_id,
    filters: { sortKey: 'effective_time', sortOrder: 'ASC', startDate: windowEnd },
    limit: ctx.pageSize,
  });
  try {
    for await (const page of pages) {
      if (ctx.signal?.aborted) throw ctx.signal.reason;
      const unique = deduper.unique(page.items, ledgerEventKey);
      progress.duplicates += page.items.length - unique.length;
      const rows = unique.map((raw) => ctx.normalize.ledger(raw, wallet));
      progress.pages++;
      progress.rows += rows.length;
      const checkpoint: Checkpoint = { ...saved, run_key: ctx.runKey, pages: progress.pages, rows: progress.rows, done: true };
      const reported = { ...progress };
      await writes.write(async () => {
        await ctx.writer.writeLedgerPage(rows, checkpoint);
        ctx.onProgress?.(reported);
      });
    }
    await writes.flush();
  } finally {
    await writes.settle();
  }
  ctx.log.debug({ stream: progress.stream, from: windowEnd, pages: progress.pages, rows: progress.rows }, 'ledger past the window end read again on resume');
  return progress;
}
