/**
 * How many chains the pull keeps open, and how long one may grow before it is split into time
 * slices. Both derive from `--concurrency`, which means one thing: requests in flight at the
 * service (the run's one limiter inside the API client, docs/style.md#2-concurrency), and from the
 * page size, which sets how many items each open chain holds.
 */
import { SERVICE_DEFAULT_PAGE_SIZE } from '../api/page-size.js';
import type { WalletCount } from './pull-plan.js';
import type { WalletRow } from '../model/rows.js';

/** Below this many pages a chain is never split: each slice costs at least one extra request. */
export const MIN_CHAIN_PAGES = 10;
/** Ledger entries per payment, for sizing ledger chains before the ledger's first page tells their size. */
export const LEDGER_ENTRIES_PER_PAYMENT = 1.5;

/**
 * Items the open chains may hold in their pages, per request in flight: two chains of the service's
 * default page (100) each, what the pull held when it always asked for pages of 100 and measured
 * within the memory bound (docs/extraction.md). A chain holds a page while it is read
 * and one while it is written (write-behind.ts), so the pull's pages are bounded in items, not in
 * pages: larger pages mean fewer chains.
 */
export const CHAIN_ITEMS_PER_REQUEST = 2 * SERVICE_DEFAULT_PAGE_SIZE;

/**
 * Chains open at once for `concurrency` requests in flight, asking pages of `pageSize` items. A
 * chain holds at most one request at a time and spends part of its time between requests
 * (normalizing a page, waiting for the previous page's write), so `concurrency` chains would leave
 * request slots idle; twice as many keep the limiter full while it alone still bounds the requests.
 * That is what small pages get; larger pages get fewer chains, so that chains × page items stays
 * within `concurrency` × CHAIN_ITEMS_PER_REQUEST — but never fewer than `concurrency`, so that every
 * request slot can still be busy (at large pages the time between requests is a smaller share of a
 * chain's time, as each request carries more). At least two, so that a chain waiting on its write
 * never leaves the one request slot empty.
 */
export function chainWidth(concurrency: number, pageSize: number = SERVICE_DEFAULT_PAGE_SIZE): number {
  const byItems = Math.floor((concurrency * CHAIN_ITEMS_PER_REQUEST) / Math.max(1, pageSize));
  return Math.max(2, concurrency, Math.min(concurrency * 2, byItems));
}

/**
 * The longest chain before a split. A chain shares the request slots with `width − 1` others, so a
 * chain longer than the run's pages / width would outlast the run; half of that keeps the end of
 * the run full. Unknown counts make small estimates: the ledger re-checks its size on its first page.
 */
export function chainBudgetPages(plan: { maxChainPages?: number; width: number; wallets: readonly WalletRow[] }, counts: ReadonlyMap<string, WalletCount>, pageSize: number): number {
  if (plan.maxChainPages !== undefined) return plan.maxChainPages > 0 ? plan.maxChainPages : Number.POSITIVE_INFINITY;
  let pages = 0;
  for (const wallet of plan.wallets) {
    const expected = counts.get(wallet.wallet_id)?.totalCount ?? 0;
    pages += 1 + Math.ceil(expected / pageSize) + Math.ceil((expected * LEDGER_ENTRIES_PER_PAYMENT) / pageSize);
  }
  return Math.max(MIN_CHAIN_PAGES, Math.ceil(pages / (2 * Math.max(1, plan.width))));
}
