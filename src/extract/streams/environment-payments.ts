/**
 * The payments of an environment read whole: endpoint 10 without the `wallet_id` filter, when that
 * takes fewer requests than one read per wallet (environment-read.ts: never read per
 * wallet what one environment-level read already returns). Only environments every wallet of which
 * the run pulls are candidates (`PullPlan.wholeEnvironments`: no `--wallet` filter, no `--shard`).
 *
 * The read is cut into time slices (time-slices.ts) so that it keeps the chains busy; each slice is
 * a cursor chain with its own checkpoint (payments.ts `pullPaymentsChain`, the wallets' chains' own
 * reader), and the plan is saved under the environment's stream before any slice starts: a resumed
 * run finds it and reads the same slices, and its presence alone keeps the decision (a resumed run
 * never switches an environment between the two ways of reading it). The environment is added to
 * `scope.wholeReads`, so its wallets' payments streams read nothing.
 */
import type { WalletRow } from '../../model/rows.js';
import type { ExtractContext, StreamProgress } from '../context.js';
import { environmentSlices, environmentRequests, perWalletRequests, readsWhole } from '../environment-read.js';
import { decodePosition, encodePosition, streamName, type EnvironmentPaymentsPosition } from '../positions.js';
import { expectedPayments, sweepCount, type PullScope } from '../pull-plan.js';
import type { RunStream, SizedSlice, SliceSet } from '../stream.js';
import { splitRange, type TimeRange } from '../time-slices.js';
import { pullPaymentsChain, type PaymentsChain } from './payments.js';

/** One slice of an environment's read; `environment` is shared by its slices, to mark it done after the last. */
interface EnvironmentSlice {
  chain: PaymentsChain;
  environment: { parent: string; slices: readonly TimeRange[]; remaining: number };
}

export const environmentPaymentsStream: RunStream<EnvironmentSlice> = {
  name: 'environment-payments',
  stage: 'environment',
  slices: planEnvironments,
  read: async (ctx, _scope, { chain, environment }) => {
    const progress = [await pullPaymentsChain(ctx, chain)];
    if (--environment.remaining === 0) progress.push(await finishEnvironment(ctx, environment.parent, environment.slices));
    return { progress };
  },
};

interface Candidate {
  environmentId: string;
  wallets: WalletRow[];
  parent: string;
  /** the saved plan of a resumed run (the decision already made) */
  saved: EnvironmentPaymentsPosition | null;
  done: boolean;
  expected: number | null;
  walletPayments: Array<number | null>;
}

async function planEnvironments(ctx: ExtractContext, scope: PullScope): Promise<SliceSet<EnvironmentSlice>> {
  const { plan } = scope;
  const pageSize = ctx.pageSizes?.payments.ask ?? ctx.pageSize;
  const candidates: Candidate[] = [];
  for (const environmentId of plan.wholeEnvironments ?? []) {
    const wallets = plan.wallets.filter((w) => w.environment_id === environmentId);
    const parent = streamName.environmentPayments(environmentId);
    const checkpoint = ctx.resume.get(parent);
    const position = decodePosition<EnvironmentPaymentsPosition>(checkpoint);
    const saved = position?.slices ? position : null;
    // a resumed run that read this environment per wallet goes on doing so
    if (saved === null && wallets.some((w) => ctx.resume.has(streamName.payments(w.wallet_id)))) continue;
    const walletPayments = wallets.map((w) => expectedPayments(scope, w));
    const known = walletPayments.every((n) => n !== null);
    const expected = sweepCount(scope, scope.environmentCounts.get(environmentId)) ?? (known ? walletPayments.reduce<number>((a, n) => a + (n ?? 0), 0) : null);
    candidates.push({ environmentId, wallets, parent, saved, done: checkpoint?.done === true, expected, walletPayments });
  }
  const parts = environmentSlices(candidates.map((c) => Math.ceil((c.expected ?? 0) / pageSize)), scope.width);

  const slices: Array<SizedSlice<EnvironmentSlice>> = [];
  // payments streams: one per wallet read per wallet; the slices and the environment's own for each read whole
  let streams = plan.wallets.length;
  for (const [k, candidate] of candidates.entries()) {
    const wanted = parts[k] ?? 1;
    const input = { walletPayments: candidate.walletPayments, environmentPayments: candidate.expected, pageSize, slices: wanted };
    if (candidate.saved === null && plan.readWhole !== 'always' && !readsWhole(input)) continue;
    scope.wholeReads.add(candidate.environmentId);
    streams -= candidate.wallets.length;
    if (candidate.done) continue;
    const ranges = candidate.saved?.slices ?? (await savePlan(ctx, scope, candidate, wanted));
    streams += ranges.length + 1;
    ctx.log.info(
      { environment: candidate.environmentId, slices: ranges.length, resumed: candidate.saved !== null, requests: environmentRequests(input), perWallet: perWalletRequests(input) },
      "reading the environment's payments whole instead of per wallet",
    );
    const keep = new Set(candidate.wallets.map((w) => w.wallet_id));
    const environment = { parent: candidate.parent, slices: ranges, remaining: ranges.length };
    const pagesEach = Math.ceil((candidate.expected ?? pageSize) / ranges.length / pageSize);
    ranges.forEach((range, index) => {
      const chain: PaymentsChain = { environmentId: candidate.environmentId, walletId: null, keep, stream: streamName.slice(candidate.parent, index, ranges.length), range, slice: true };
      slices.push({ slice: { chain, environment }, size: pagesEach + 1 });
    });
  }
  if (scope.wholeReads.size > 0) ctx.onExpect?.({ payments: streams });
  return { slices };
}

/** Cuts the sweep into `parts` slices spread over where the payments lie, and saves the plan first. */
async function savePlan(ctx: ExtractContext, scope: PullScope, candidate: Candidate, parts: number): Promise<TimeRange[]> {
  const { plan } = scope;
  const window = plan.paymentWindow;
  // the summary's span is of the report window: it only places slices of that same window
  const sameWindow = window.from === plan.window.from && window.to === plan.window.to;
  const count = scope.environmentCounts.get(candidate.environmentId);
  const span = sameWindow && count?.oldest && count.newest ? { from: maxOf(window.from, count.oldest), to: minOf(window.to, count.newest) } : window;
  const slices = splitRange({ from: window.from, to: window.to }, parts, span.from < span.to ? span : window);
  await ctx.writer.writePaymentsPage([], { run_key: ctx.runKey, stream: candidate.parent, position: encodePosition({ slices } satisfies EnvironmentPaymentsPosition), pages: 0, rows: 0, done: false });
  return slices;
}

/** Marks the environment's stream done once its last slice is (the slices count the rows; the plan stays). */
async function finishEnvironment(ctx: ExtractContext, parent: string, slices: readonly TimeRange[]): Promise<StreamProgress> {
  const progress = { stream: parent, pages: 0, rows: 0, duplicates: 0, done: true };
  await ctx.writer.writePaymentsPage([], { run_key: ctx.runKey, stream: parent, position: encodePosition({ slices: [...slices] } satisfies EnvironmentPaymentsPosition), pages: 0, rows: 0, done: true });
  ctx.onProgress?.(progress);
  return progress;
}

function maxOf(a: string, b: string): string {
  return a > b ? a : b;
}

function minOf(a: string, b: string): string {
  return a < b ? a : b;
}
