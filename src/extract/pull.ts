/**
 * The pull stage: every stream of the plan through one bounded pool of chains, each chain strictly
 * sequential, every request under the run's one limiter (inside the API client). Pages flow to the
 * snapshot writer one at a time — nothing collects a whole stream — and every page is a resume point.
 *
 * Phases: (1) summaries, payments and ledgers of every wallet, and the environment summaries;
 * (2) per wallet, payments read by id: the ones a ledger entry names but no list returned, and (for
 * the nightly) the still-open payments of the snapshot, so late completions are caught.
 */
import type { WalletRow } from '../normalize/rows.js';
import type { Window } from '../store/ports.js';
import { runPool } from '../util/pool.js';
import { pullPaymentsById } from './by-id.js';
import type { ExtractContext, StreamProgress } from './context.js';
import { pullWalletLedger } from './ledgers.js';
import { pullWalletPayments } from './payments.js';
import { pullEnvironmentSummary, pullWalletSummary } from './summaries.js';

export interface PullPlan {
  wallets: readonly WalletRow[];
  /** environments whose summary is read (only an unsharded run or shard 0 reads them) */
  summaryEnvironments: readonly string[];
  /** the report window: summaries are asked for exactly this */
  window: Window;
  /** the payments sweep: the window, widened by the look-back for the nightly */
  paymentWindow: Window;
  /** the ledger's start per wallet (null = whole history) */
  ledgerStart(wallet: WalletRow): Promise<string | null>;
  /** payment ids named by ledger entries of the window that the snapshot does not hold */
  orphanPaymentIds(wallet: WalletRow): Promise<string[]>;
  /** still-open payments of the snapshot to re-read (nightly); undefined = no refresh */
  openPaymentIds?: (wallet: WalletRow) => Promise<string[]>;
  /** chains open at once (each holds at most one request in flight) */
  width: number;
}

export interface PullResult {
  streams: StreamProgress[];
  duplicates: number;
  /** ids read by id that the service answered 404 for */
  missingPaymentIds: string[];
}

type Unit = { kind: 'env-summary'; environmentId: string } | { kind: 'wallet-summary' | 'payments' | 'ledger'; wallet: WalletRow };

export async function pull(ctx: ExtractContext, plan: PullPlan): Promise<PullResult> {
  const streams: StreamProgress[] = [];
  const units: Unit[] = [
    ...plan.summaryEnvironments.map((environmentId): Unit => ({ kind: 'env-summary', environmentId })),
    ...plan.wallets.flatMap((wallet): Unit[] => [
      { kind: 'wallet-summary', wallet },
      { kind: 'payments', wallet },
      { kind: 'ledger', wallet },
    ]),
  ];
  await runPool(
    units,
    plan.width,
    async (unit) => {
      switch (unit.kind) {
        case 'env-summary':
          streams.push(await pullEnvironmentSummary(ctx, unit.environmentId, plan.window));
          return;
        case 'wallet-summary':
          streams.push(await pullWalletSummary(ctx, unit.wallet, plan.window));
          return;
        case 'payments':
          streams.push(await pullWalletPayments(ctx, { wallet: unit.wallet, window: plan.paymentWindow }));
          return;
        case 'ledger':
          streams.push(await pullWalletLedger(ctx, { wallet: unit.wallet, startDate: await plan.ledgerStart(unit.wallet) }));
          return;
      }
    },
    ctx.signal,
  );

  const missing: string[] = [];
  await runPool(
    plan.wallets,
    plan.width,
    async (wallet) => {
      const orphans = await plan.orphanPaymentIds(wallet);
      if (orphans.length > 0) {
        const result = await pullPaymentsById(ctx, wallet, orphans, 'orphans');
        streams.push(result);
        missing.push(...result.missing);
      }
      if (plan.openPaymentIds) {
        const open = await plan.openPaymentIds(wallet);
        if (open.length > 0) streams.push(await pullPaymentsById(ctx, wallet, open, 'open'));
      }
    },
    ctx.signal,
  );
  streams.sort((a, b) => (a.stream < b.stream ? -1 : a.stream > b.stream ? 1 : 0));
  return { streams, duplicates: streams.reduce((n, s) => n + s.duplicates, 0), missingPaymentIds: missing.sort() };
}
