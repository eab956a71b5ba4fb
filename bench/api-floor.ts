/**
 * The API floor of issue 29, target 2 (docs/benchmarks.md "The API floor"): the fewest requests
 * that fetch the same data at the page size the service grants, × the latency ÷ the concurrency.
 *
 * What a run fetched is read from the simulator's request log of that run; the floor keeps every
 * request that is one per thing (the wallet list, the assets, each wallet's policies and payment
 * summary, each environment's summary, the bills, the payments read by id) and replaces the list
 * pages by the fewest that return the same items at the granted size:
 *
 *   payments  per environment, the smaller of one environment-level read, ⌈N_env ÷ g⌉ pages,
 *             and one read per wallet, Σ max(1, ⌈n_wallet ÷ g⌉)
 *   ledger    per wallet (the service has no environment-level ledger), max(1, ⌈l_wallet ÷ g⌉)
 *
 * with N, n and l counted in the simulator's dataset built from the same seed (payments created in
 * the window, the wallets' whole ledgers: what a first run reads).
 */
import { readFileSync } from 'node:fs';
import { Dataset } from '../src/sim/dataset/dataset.js';

export interface ApiFloorInput {
  requestLog: string;
  payments: number;
  wallets: number;
  seed: number;
  /** the report window's creation-time bounds, inclusive, RFC 3339 */
  from: string;
  to: string;
  /** the page size the service grants (the simulator's cap) */
  grantedPageSize: number;
  latencyMs: number;
  concurrency: number;
}

export interface ApiFloor {
  /** requests the run made, by kind */
  made: Record<string, number>;
  madeTotal: number;
  /** the fewest requests for the same data, by kind */
  floor: Record<string, number>;
  floorTotal: number;
  /** floorTotal × latency ÷ concurrency */
  floorSeconds: number;
  grantedPageSize: number;
}

export function kindOf(requestPath: string): string {
  if (requestPath.endsWith('/ledger')) return 'ledger';
  if (requestPath.endsWith('/payments/summary')) return 'summary';
  if (/\/payments\/[^/]+$/.test(requestPath)) return 'payment_by_id';
  if (requestPath.endsWith('/payments')) return 'payments';
  if (requestPath.endsWith('/policies')) return 'policies';
  return 'other';
}

export function apiFloor(input: ApiFloorInput): ApiFloor {
  const made: Record<string, number> = {};
  for (const line of readFileSync(input.requestLog, 'utf8').split('\n')) {
    if (!line.startsWith('{')) continue;
    const entry = JSON.parse(line) as { path: string; status: number };
    const kind = kindOf(entry.path);
    made[kind] = (made[kind] ?? 0) + 1;
  }
  const dataset = new Dataset({ seed: input.seed, scale: input.payments, wallets: input.wallets });
  const g = input.grantedPageSize;
  const pages = (n: number, atLeastOne: boolean): number => Math.max(atLeastOne ? 1 : 0, Math.ceil(n / g));
  let payments = 0;
  for (const env of dataset.environments) {
    const walletsOfEnv = dataset.wallets.filter((w) => w.environmentIndex === env.index);
    const envLevel = pages(dataset.countPayments({ environmentId: env.id, from: input.from, to: input.to }), false);
    const perWallet = walletsOfEnv.reduce((sum, w) => sum + pages(dataset.countPayments({ walletId: w.id, from: input.from, to: input.to }), true), 0);
    payments += Math.min(envLevel, perWallet);
  }
  const ledger = dataset.wallets.reduce((sum, w) => sum + pages(dataset.ledgerEntries(w.id).length, true), 0);
  const floor: Record<string, number> = { ...made, payments, ledger };
  const total = (r: Record<string, number>): number => Object.values(r).reduce((a, b) => a + b, 0);
  const floorTotal = total(floor);
  return { made, madeTotal: total(made), floor, floorTotal, floorSeconds: Math.round((floorTotal * input.latencyMs) / input.concurrency / 100) / 10, grantedPageSize: g };
}
