/**
 * Bills of one line of credit: the cursor chain of GET …/bills (the list cannot be filtered by
 * time, and bills are few: every bill of the line of credit is kept, the report reads those whose
 * period overlaps its window), then the bills summary, whose count proves the list missed none.
 * Same discipline as every stream: pages de-duplicated, normalized losslessly, each written with
 * its checkpoint in one step; a resumed run continues after the last saved cursor.
 */
import { billKey, billPages, billSummary } from '../../api/endpoints.js';
import { ApiError } from '../../api/errors.js';
import { SweepDeduper } from '../../api/paginate.js';
import type { ExtractContext, StreamProgress } from '../context.js';
import { acceptPage, writePageBehind } from '../stream-page.js';
import { decodePosition, encodePosition, streamName, type BillsPosition } from '../positions.js';
import { WriteBehind } from '../write-behind.js';
import type { RunStream } from '../stream.js';

export interface LineOfCredit {
  lineOfCreditId: string;
  /** the environment whose credential reads it */
  environmentId: string;
  /** the bills summary is read after the list (by the run that reads the environment summaries) */
  summary: boolean;
}

/**
 * The stream: one slice per line of credit, in id order; the list then its summary. Whoever reads
 * the environment summaries (an unsharded run or shard 0) reads every line of credit of the wallets
 * in scope, with its summary; another shard reads the lists of its own wallets' lines of credit
 * only, without summaries: its pull needs the periods of the bills its wallets' report ties
 * (streams/bill-period-payments.ts), whether or not shard 0 has stored them yet.
 */
export const billsStream: RunStream<LineOfCredit> = {
  name: 'bills',
  stage: 'sizing',
  slices: async (_ctx, { plan }) => {
    const summary = plan.summaryEnvironments.length > 0;
    const lines = new Map<string, string>();
    for (const w of summary ? (plan.billWallets ?? plan.wallets) : plan.wallets) if (w.line_of_credit_id !== null && !lines.has(w.line_of_credit_id)) lines.set(w.line_of_credit_id, w.environment_id);
    return { slices: [...lines].sort(([a], [b]) => (a < b ? -1 : 1)).map(([lineOfCreditId, environmentId]) => ({ slice: { lineOfCreditId, environmentId, summary }, size: 0 })) };
  },
  read: async (ctx, _scope, loc) => ({ progress: await pullBills(ctx, loc) }),
};

async function pullBills(ctx: ExtractContext, loc: LineOfCredit): Promise<StreamProgress[]> {
  const chain = await pullBillsChain(ctx, loc);
  return loc.summary ? [chain.progress, await pullBillSummary(ctx, loc, chain.listed)] : [chain.progress];
}

async function pullBillsChain(ctx: ExtractContext, loc: LineOfCredit): Promise<{ progress: StreamProgress; listed: number | null }> {
  const stream = streamName.bills(loc.lineOfCreditId);
  const saved = ctx.resume.get(stream);
  const position = decodePosition<BillsPosition>(saved);
  const progress: StreamProgress = { stream, pages: saved?.pages ?? 0, rows: saved?.rows ?? 0, duplicates: 0, done: saved?.done ?? false };
  if (progress.done) return { progress, listed: position?.listed ?? null };
  let start: string | undefined = position?.next ?? undefined;
  // a resumed chain cannot tell which of the saved bills it would list again: their count is then unknown
  let listed: number | null = start === undefined ? 0 : null;
  const deduper = new SweepDeduper();
  const writes = new WriteBehind();
  for (let attempt = 0; ; attempt++) {
    try {
      const pages = billPages(ctx.apiFor(loc.environmentId), { organizationId: ctx.organizationId, lineOfCreditId: loc.lineOfCreditId, limit: Math.min(ctx.pageSize, 500), ...(start !== undefined ? { start } : {}) });
      for await (const page of pages) {
        if (ctx.signal?.aborted) throw ctx.signal.reason;
        const records = acceptPage(progress, deduper, page, billKey, (raw) => ctx.normalize.bill(raw));
        if (listed !== null) listed += records.length;
        const next: BillsPosition = { next: page.next, listed: listed ?? -1 };
        await writePageBehind(ctx, writes, progress, encodePosition(next), records, (batch, checkpoint) => ctx.writer.writeBillsPage(batch, checkpoint));
        start = page.next ?? undefined;
      }
      await writes.flush();
      progress.done = true;
      return { progress, listed };
    } catch (error) {
      await writes.settle();
      if (attempt === 0 && start !== undefined && error instanceof ApiError && error.type === 'invalid_cursor') {
        ctx.log.warn({ stream }, 'saved cursor refused by the service; restarting the stream from its first page');
        start = undefined;
        listed = 0;
        progress.pages = 0;
        progress.rows = 0;
        continue;
      }
      throw error;
    }
  }
}

async function pullBillSummary(ctx: ExtractContext, loc: LineOfCredit, listed: number | null): Promise<StreamProgress> {
  const stream = streamName.billSummary(loc.lineOfCreditId);
  if (ctx.resume.get(stream)?.done) return { stream, pages: 1, rows: 0, duplicates: 0, done: true };
  const raw = await billSummary(ctx.apiFor(loc.environmentId), { organizationId: ctx.organizationId, lineOfCreditId: loc.lineOfCreditId });
  const row = ctx.normalize.billSummary(raw, loc.lineOfCreditId, listed !== null && listed >= 0 ? listed : null);
  await ctx.writer.writeBillSummary(ctx.runId, row, { run_key: ctx.runKey, stream, position: '{}', pages: 1, rows: 1, done: true });
  const progress = { stream, pages: 1, rows: 1, duplicates: 0, done: true };
  ctx.onProgress?.(progress);
  return progress;
}
