/**
 * Payments read one by one: still-open payments of the snapshot (late completions — the nightly
 * refresh) and payments that a ledger entry names but no list returned (created before the window,
 * or missed). A 404 leaves the id unknown; reconciliation reports it.
 *
 * No position is saved inside this stream: the caller derives the ids from the snapshot, so after a
 * kill the ids already fetched are no longer orphans (or no longer open) and simply drop out.
 * When the orphans are many and reach back before the window (the lots replay's
 * history on a first close, src/jobs/lots-payment-reach.ts), the plan's creation range is swept by
 * list first (its own resumable stream), and only what that left is read by id.
 */
import { getPayment } from '../../api/endpoints.js';
import { ApiError } from '../../api/errors.js';
import type { PaymentRow, WalletRow } from '../../model/rows.js';
import type { ExtractContext, StreamProgress } from '../context.js';
import { streamName } from '../positions.js';
import type { PullScope } from '../pull-plan.js';
import type { ReadOutcome, WalletStream } from '../stream.js';
import { pullPaymentsChain } from './payments.js';

/**
 * By-id reads go first once a wallet is ready: they are short, and the run's end should not wait on
 * them. One slice per wallet: its orphans, then (nightly) its open payments.
 */
export const paymentsByIdStream: WalletStream<WalletRow> = {
  name: 'payments-by-id',
  stage: 'wallet-done',
  slices: async (_ctx, _scope, wallet) => ({ slices: [{ slice: wallet, size: Number.MAX_SAFE_INTEGER }] }),
  read: readById,
};

async function readById(ctx: ExtractContext, scope: PullScope, wallet: WalletRow): Promise<ReadOutcome<WalletRow>> {
  const outcome = { progress: [] as StreamProgress[], missingPaymentIds: [] as string[] };
  let orphans = await scope.plan.orphanPaymentIds(wallet);
  const sweep = orphans.length > SWEEP_ABOVE ? (scope.plan.orphanSweep?.(wallet) ?? null) : null;
  if (sweep !== null) {
    // many of them (a first close's history): a list sweep reads them a page at a time
    outcome.progress.push(await pullPaymentsChain(ctx, { environmentId: wallet.environment_id, walletId: wallet.wallet_id, stream: streamName.paymentsHistory(wallet.wallet_id), range: sweep, slice: false }));
    orphans = await scope.plan.orphanPaymentIds(wallet);
  }
  if (orphans.length > 0) {
    const result = await pullPaymentsById(ctx, wallet, orphans, 'orphans');
    outcome.progress.push(result);
    outcome.missingPaymentIds.push(...result.missing);
  }
  if (scope.plan.openPaymentIds) {
    const open = await scope.plan.openPaymentIds(wallet);
    if (open.length > 0) outcome.progress.push(await pullPaymentsById(ctx, wallet, open, 'open'));
  }
  return outcome;
}

/** Reads in flight per chunk are still bounded by the run's one request limiter. */
const CHUNK = 32;
/**
 * Above two chunks of orphans, a sweep of the plan's range is cheaper: it reads the range's
 * payments (a wallet's failed and expired ones too, a few per orphan) a page at a time, where by
 * id each orphan is a request. Below it, a chain of closes' few late ones stay by id.
 */
const SWEEP_ABOVE = 2 * CHUNK;

async function pullPaymentsById(
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
