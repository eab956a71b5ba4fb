/**
 * The wallet's payment summary (counts, not money) for the report window, asked with the same
 * filters as the lists: created in the window, inactive wallets included. Kept for the summary
 * check, and its count and span size the wallet's chains (saved in the position, so a resumed run
 * sizes them the same way).
 */
import { walletSummary } from '../../api/endpoints.js';
import type { WalletRow } from '../../model/rows.js';
import type { Window } from '../../model/window.js';
import { apiDateBounds } from '../../api/date-bounds.js';
import type { ExtractContext, StreamProgress } from '../context.js';
import { streamName } from '../positions.js';
import type { WalletCount } from '../pull-plan.js';
import type { RunStream } from '../stream.js';
import { countOfSummary, savedCount, summaryPosition } from './summary-count.js';

/** One request per wallet of the run; the counts go to the scope, for the chains' planning. */
export const walletSummaryStream: RunStream<WalletRow> = {
  name: 'wallet-summary',
  stage: 'sizing',
  slices: async (_ctx, { plan }) => ({ slices: plan.wallets.map((wallet) => ({ slice: wallet, size: 0 })) }),
  read: async (ctx, scope, wallet) => {
    const { count, ...progress } = await pullWalletSummary(ctx, wallet, scope.plan.window);
    scope.counts.set(wallet.wallet_id, count);
    return { progress: [progress] };
  },
};

async function pullWalletSummary(ctx: ExtractContext, wallet: WalletRow, window: Window): Promise<StreamProgress & { count: WalletCount }> {
  const stream = streamName.walletSummary(wallet.wallet_id);
  const saved = ctx.resume.get(stream);
  if (saved?.done) return { stream, pages: 1, rows: 0, duplicates: 0, done: true, count: savedCount(saved) };
  const bounds = apiDateBounds(window);
  const raw = await walletSummary(ctx.apiFor(wallet.environment_id), {
    organizationId: ctx.organizationId,
    walletId: wallet.wallet_id,
    filters: { includeInactive: true, startDate: bounds.start_date, endDate: bounds.end_date },
  });
  const rows = ctx.normalize.walletSummary(raw, wallet);
  const count = countOfSummary(raw);
  const position = summaryPosition(count);
  await ctx.writer.writeSummaries(ctx.runId, rows, { run_key: ctx.runKey, stream, position, pages: 1, rows: rows.length, done: true });
  const progress = { stream, pages: 1, rows: rows.length, duplicates: 0, done: true };
  ctx.onProgress?.(progress);
  return { ...progress, count };
}
