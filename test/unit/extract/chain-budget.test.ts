import { describe, expect, it } from 'vitest';
import { CHAIN_ITEMS_PER_REQUEST, chainBudgetPages, chainWidth, MIN_CHAIN_PAGES } from '../../../src/extract/chain-budget.js';
import type { WalletCount } from '../../../src/extract/pull-plan.js';
import type { WalletRow } from '../../../src/model/rows.js';

const wallets = (n: number): WalletRow[] => Array.from({ length: n }, (_v, i) => ({ wallet_id: `w${i}` }) as WalletRow);
const counts = (n: number, each: number): Map<string, WalletCount> => new Map(Array.from({ length: n }, (_v, i) => [`w${i}`, { totalCount: each, oldest: null, newest: null }]));

describe('chainBudgetPages', () => {
  it('is a fixed value when given, and unlimited for 0', () => {
    expect(chainBudgetPages({ maxChainPages: 7, width: 16, wallets: wallets(1) }, counts(1, 1e6), 100)).toBe(7);
    expect(chainBudgetPages({ maxChainPages: 0, width: 16, wallets: wallets(1) }, counts(1, 1e6), 100)).toBe(Number.POSITIVE_INFINITY);
  });

  it('is 1/(2·width) of the estimated pages: one huge wallet is split, many small ones are not', () => {
    // one wallet of 100,000 payments: 1 + 1,000 + 1,500 pages → 2,501 / 32 → 79 pages per chain
    expect(chainBudgetPages({ width: 16, wallets: wallets(1) }, counts(1, 100_000), 100)).toBe(79);
    // 200 wallets of 250: 200 × (1 + 3 + 4) pages / 32 → 50, far above any of their chains → nothing is split
    expect(chainBudgetPages({ width: 16, wallets: wallets(200) }, counts(200, 250), 100)).toBe(50);
  });

  it('never goes below MIN_CHAIN_PAGES, also when counts are unknown', () => {
    expect(chainBudgetPages({ width: 16, wallets: wallets(3) }, new Map(), 100)).toBe(MIN_CHAIN_PAGES);
  });
});

describe('chainWidth', () => {
  it('keeps two chains per request in flight at the service default page (what the pull always had)', () => {
    expect(chainWidth(8, 100)).toBe(16);
    expect(chainWidth(8)).toBe(16);
    expect(chainWidth(4, 50)).toBe(8);
  });

  it('opens fewer chains for larger pages, so that the pages they hold stay within the same items', () => {
    // 8 requests in flight hold at most 8 × 200 items in pages: pages of 150 → 10 chains
    expect(chainWidth(8, 150)).toBe(10);
    expect(chainWidth(8, 150) * 150).toBeLessThanOrEqual(8 * CHAIN_ITEMS_PER_REQUEST);
  });

  it('never opens fewer chains than requests in flight (the limiter stays full), nor fewer than two', () => {
    expect(chainWidth(8, 500)).toBe(8);
    expect(chainWidth(8, 1000)).toBe(8);
    expect(chainWidth(1, 1000)).toBe(2);
  });

  it('for every concurrency and page size: between max(2, concurrency) and 2 × concurrency, and within the items bound above the floor', () => {
    for (let concurrency = 1; concurrency <= 32; concurrency++) {
      for (const pageSize of [1, 10, 50, 99, 100, 101, 133, 200, 250, 333, 500, 999, 1000]) {
        const width = chainWidth(concurrency, pageSize);
        const floor = Math.max(2, concurrency);
        expect(width).toBeGreaterThanOrEqual(floor);
        expect(width).toBeLessThanOrEqual(Math.max(2, 2 * concurrency));
        if (width > floor) expect(width * pageSize).toBeLessThanOrEqual(concurrency * CHAIN_ITEMS_PER_REQUEST);
      }
    }
  });
});
