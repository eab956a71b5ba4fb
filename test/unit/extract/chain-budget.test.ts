import { describe, expect, it } from 'vitest';
import { chainBudgetPages, MIN_CHAIN_PAGES } from '../../../src/extract/chain-budget.js';
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
