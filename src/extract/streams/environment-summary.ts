/**
 * The environment's payment summary (counts, not money) for the report window, asked with the same
 * filters as the lists: created in the window, inactive wallets included. Its counts prove that the
 * per-wallet pulls missed no payment (e.g. of a wallet the wallet list did not return).
 */
import { environmentSummary } from '../../api/endpoints.js';
import type { Window } from '../../model/window.js';
import { apiDateBounds } from '../../api/date-bounds.js';
import type { ExtractContext, StreamProgress } from '../context.js';
import { streamName } from '../positions.js';
import type { RunStream } from '../stream.js';

/** One request per environment whose summary this run reads (an unsharded run or shard 0). */
export const environmentSummaryStream: RunStream<string> = {
  name: 'environment-summary',
  stage: 'sizing',
  slices: async (_ctx, { plan }) => ({ slices: plan.summaryEnvironments.map((environmentId) => ({ slice: environmentId, size: 0 })) }),
  read: async (ctx, { plan }, environmentId) => ({ progress: [await pullEnvironmentSummary(ctx, environmentId, plan.window)] }),
};

async function pullEnvironmentSummary(ctx: ExtractContext, environmentId: string, window: Window): Promise<StreamProgress> {
  const stream = streamName.environmentSummary(environmentId);
  if (ctx.resume.get(stream)?.done) return { stream, pages: 1, rows: 0, duplicates: 0, done: true };
  const bounds = apiDateBounds(window);
  const raw = await environmentSummary(ctx.apiFor(environmentId), {
    organizationId: ctx.organizationId,
    environmentId,
    filters: { includeInactive: true, startDate: bounds.start_date, endDate: bounds.end_date },
  });
  const rows = ctx.normalize.environmentSummary(raw, environmentId);
  await ctx.writer.writeSummaries(ctx.runId, rows, { run_key: ctx.runKey, stream, position: '{}', pages: 1, rows: rows.length, done: true });
  const progress = { stream, pages: 1, rows: rows.length, duplicates: 0, done: true };
  ctx.onProgress?.(progress);
  return progress;
}
