/**
 * The dry run's view of the environment-level read (environment-read.ts): which environments the
 * pull would read whole, from the wallets' counts alone (the dry run asks no environment summary;
 * an environment's count is its wallets' sum, as it is when every wallet is in the run).
 */
import type { WalletRow } from '../model/rows.js';
import { environmentRequests, environmentSlices, perWalletRequests, readsWhole } from './environment-read.js';

export interface PaymentsRead {
  /** environments whose payments would be read whole */
  environments: string[];
  /** requests that saves over reading those environments per wallet */
  saved: number;
}

export function planPaymentsRead(candidates: readonly string[], wallets: readonly WalletRow[], counts: ReadonlyMap<string, number>, pageSize: number, width: number, always = false): PaymentsRead {
  const byEnvironment = candidates.map((environmentId) => wallets.filter((w) => w.environment_id === environmentId).map((w) => counts.get(w.wallet_id) ?? null));
  const totals = byEnvironment.map((walletPayments) => walletPayments.reduce<number>((n, c) => n + (c ?? 0), 0));
  const slices = environmentSlices(totals.map((n) => Math.ceil(n / pageSize)), width);
  const read: PaymentsRead = { environments: [], saved: 0 };
  candidates.forEach((environmentId, k) => {
    const walletPayments = byEnvironment[k] ?? [];
    const input = { walletPayments, environmentPayments: walletPayments.every((c) => c !== null) ? (totals[k] ?? 0) : null, pageSize, slices: slices[k] ?? 1 };
    if (!always && !readsWhole(input)) return;
    read.environments.push(environmentId);
    read.saved += perWalletRequests(input) - (environmentRequests(input) ?? 0);
  });
  return read;
}
