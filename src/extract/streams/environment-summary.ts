/**
 * The environment's payment summary (counts, not money) for the report window, asked with the same
 * filters as the lists: created in the window, inactive wallets included. Its counts prove that the
 * per-wallet pulls missed no payment (e.g. of a wallet the wallet list did not return), and size the
 * environment-level read (environment-payments.ts); they are saved in the position, so a resumed run
 * sizes it the same way.
 */
import { environmentSummary } from '../../api/endpoints.js';
import type { Window } from '../../model/window.js';
import { apiDateBounds } from '../../api/date-bounds.js';
import type { ExtractContext, StreamProgress } from '../context.js';
import { streamName } from '../positions.js';
import type { WalletCount } from '../pull-plan.js';
import type { RunStream } from '../stream.js';
import { countOfSummary, savedCount, summaryPosition } from './summary-count.js';

/** One request per environment whose summary this run reads (an unsharded run or shard 0). */
export const environmentSummaryStream: RunStream<string> = {
  name: 'environment-summary',
  stage: 'sizing',
  slices: async (_ctx, { plan }) => ({ slices: plan.summaryEnvironments.map((environmentId) => ({ slice: environmentId, size: 0 })) }),
  read: async (ctx, scope, environmentId) => {
    const { count, ...progress } = await pullEnvironmentSummary(ctx, environmentId, scope.plan.window);
    scope.environmentCounts.set(environmentId, count);
    return { progress: [progress] };
  },
};

async function pullEnvironmentSummary(ctx: ExtractContext, environmentId: string, window: Window): Promise<StreamProgress & { count: WalletCount }> {
  const stream = streamName.environmentSummary(environmentId);
  const saved = ctx.resume.get(stream);
  if (saved?.done) return { stream, pages: 1, rows: 0, duplicates: 0, done: true, count: savedCount(saved) };
  const bounds = apiDateBounds(window);
  const raw = await environmentSummary(ctx.apiFor(environmentId), {
    organizationId: ctx.organizationId,
    environmentId,
    filters: { includeInactive: true, startDate: bounds.start_date, endDate: bounds.end_date },
  });
  const rows = ctx.normalize.environmentSummary(raw, environmentId);
  const count = countOfSummary(raw);
  await ctx.writer.writeSummaries(ctx.runId, rows, { run_key: ctx.runKey, stream, position: summaryPosition(count), pages: 1, rows: rows.length, done: true });
  const progress = { stream, pages: 1, rows: rows.length, duplicates: 0, done: true };
  ctx.onProgress?.(progress);
  return { ...progress, count };
}
