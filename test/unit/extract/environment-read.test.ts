import { describe, expect, it } from 'vitest';
import { environmentRequests, environmentSlices, perWalletRequests, readsWhole } from '../../../src/extract/environment-read.js';
import { MIN_CHAIN_PAGES } from '../../../src/extract/chain-budget.js';
import { MAX_SLICES } from '../../../src/extract/time-slices.js';

describe('environment-read: per wallet or the environment whole', () => {
  it.each([
    // many small wallets: one request each per wallet, a few pages whole
    { label: '200 wallets of 250, pages of 500', wallets: Array<number>(200).fill(250), env: 50_000, page: 500, slices: 16, whole: true },
    { label: '200 wallets of exactly one page each', wallets: Array<number>(200).fill(500), env: 100_000, page: 500, slices: 16, whole: false },
    // few wallets of many pages: the slices' short last pages cost more than per wallet's
    { label: '2 wallets of 10 pages each', wallets: [1000, 1000], env: 2000, page: 100, slices: 4, whole: false },
    // an unknown wallet count keeps per-wallet reads only if the environment's count is unknown too
    { label: 'environment count unknown', wallets: [10, 10, 10], env: null, page: 100, slices: 1, whole: false },
    { label: 'one wallet', wallets: [50], env: 50, page: 100, slices: 1, whole: false },
    { label: 'empty wallets', wallets: [0, 0, 0], env: 0, page: 100, slices: 1, whole: true },
  ])('$label → whole: $whole', ({ wallets, env, page, slices, whole }) => {
    const input = { walletPayments: wallets, environmentPayments: env, pageSize: page, slices };
    expect(readsWhole(input)).toBe(whole);
    expect(perWalletRequests(input)).toBe(wallets.reduce((n, c) => n + Math.max(1, Math.ceil(c / page)), 0));
    expect(environmentRequests(input)).toBe(env === null ? null : Math.ceil(env / page) + slices);
  });

  it('a wallet of unknown count costs at least its one request', () => {
    expect(perWalletRequests({ walletPayments: [null, 250], pageSize: 100 })).toBe(1 + 3);
  });

  it('shares the chains out by pages: at least one slice, none shorter than MIN_CHAIN_PAGES, at most MAX_SLICES', () => {
    const pages = [200, 100, 5, 0];
    const slices = environmentSlices(pages, 16);
    slices.forEach((n, k) => {
      expect(n).toBeGreaterThanOrEqual(1);
      expect(n).toBeLessThanOrEqual(MAX_SLICES);
      if (n > 1) expect(pages[k]! / n).toBeGreaterThanOrEqual(MIN_CHAIN_PAGES);
    });
    expect(slices[0]).toBeGreaterThan(slices[1]!);
    expect(slices.slice(2)).toEqual([1, 1]);
    expect(environmentSlices([10_000], 1_000)).toEqual([MAX_SLICES]);
  });
});
