/**
 * The dry run's estimate: each wallet's payment count in a window, one summary request per wallet.
 * The requests go through the pull's own pool (WorkQueue, as wide as the pull's, chain-budget.ts)
 * and the run's one limiter inside the API client; nothing is written.
 */
import { walletSummary, type ApiReader } from '../api/endpoints.js';
import { apiDateBounds } from '../api/date-bounds.js';
import type { WalletRow } from '../model/rows.js';
import type { Window } from '../model/window.js';
import { chainWidth } from './chain-budget.js';
import { WorkQueue } from './work-queue.js';

export interface PaymentCountsInput {
  organizationId: string;
  apiFor(environmentId: string): ApiReader;
  wallets: readonly WalletRow[];
  window: Window;
  /** `--concurrency`: requests in flight at the service */
  concurrency: number;
  signal?: AbortSignal;
}

/** Payments created in the window per wallet id; a count the service does not give is 0. */
export async function countPayments(input: PaymentCountsInput): Promise<Map<string, number>> {
  const bounds = apiDateBounds(input.window);
  const counts = new Map<string, number>();
  const queue = new WorkQueue<WalletRow>(
    chainWidth(input.concurrency),
    async (wallet) => {
      const summary = await walletSummary(input.apiFor(wallet.environment_id), {
        organizationId: input.organizationId,
        walletId: wallet.wallet_id,
        filters: { includeInactive: true, startDate: bounds.start_date, endDate: bounds.end_date },
      });
      const count = Number(summary.total_count);
      counts.set(wallet.wallet_id, Number.isFinite(count) ? count : 0);
    },
    input.signal,
  );
  for (const wallet of input.wallets) queue.push(wallet, 0);
  await queue.drain();
  return counts;
}
