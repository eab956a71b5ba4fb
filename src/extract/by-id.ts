/**
 * Payments read one by one: still-open payments of the snapshot (late completions — the nightly
 * refresh) and payments that a ledger entry names but no list returned (created before the window,
 * or missed). A 404 leaves the id unknown; reconciliation reports it.
 *
 * No position is saved inside this stream: the caller derives the ids from the snapshot, so after a
 * kill the ids already fetched are no longer orphans (or no longer open) and simply drop out.
 */
import { getPayment } from '../api/endpoints.js';
import { ApiError } from '../api/errors.js';
import type { PaymentRow, WalletRow } from '../model/rows.js';
import type { ExtractContext, StreamProgress } from './context.js';
import { streamName } from './streams.js';

/** Reads in flight per chunk are still bounded by the run's one request limiter. */
const CHUNK = 32;

export async function pullPaymentsById(
  ctx: ExtractContext,
  wallet: WalletRow,
  ids: readonly string[],
  purpose: 'orphans' | 'open',
): Promise<StreamProgress & { missing: string[] }> {
  const stream = streamName.paymentsById(wallet.wallet_id, purpose);
  const progress = { stream, pages: 0, rows: 0, duplicates: 0, done: false, missing: [] as string[] };
  if (ctx.resume.get(stream)?.done) return { ...progress, done: true };
  const sorted = [...new Set(ids)].sort();
  for (let index = 0; index < sorted.length; index += CHUNK) {
    if (ctx.signal?.aborted) throw ctx.signal.reason;
    const chunk = sorted.slice(index, index + CHUNK);
    const found = await Promise.all(chunk.map((id) => readOne(ctx, wallet, id)));
    const rows: PaymentRow[] = [];
    found.forEach((row, i) => (row ? rows.push(row) : progress.missing.push(chunk[i]!)));
    progress.pages++;
    progress.rows += rows.length;
    await ctx.writer.writePaymentsPage(rows, { run_key: ctx.runKey, stream, position: '{}', pages: progress.pages, rows: progress.rows, done: false });
    ctx.onProgress?.(progress);
  }
  progress.done = true;
  await ctx.writer.writePaymentsPage([], { run_key: ctx.runKey, stream, position: '{}', pages: progress.pages, rows: progress.rows, done: true });
  return progress;
}

async function readOne(ctx: ExtractContext, wallet: WalletRow, id: string): Promise<PaymentRow | undefined> {
  try {
    const raw = await getPayment(ctx.apiFor(wallet.environment_id), { organizationId: ctx.organizationId, environmentId: wallet.environment_id, paymentId: id });
    return ctx.normalize.payment(raw, wallet.environment_id);
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return undefined;
    throw error;
  }
}
