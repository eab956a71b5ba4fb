import { describe, expect, it } from 'vitest';
import { wholeEnvironments } from '../../../src/jobs/whole-environments.js';

const discovery = { environments: ['env-a', 'env-b'] };

describe('wholeEnvironments: which environments a run may read whole', () => {
  it.each([
    { label: 'auto on a Postgres server', config: { paymentsRead: 'auto', wallets: [], db: true }, shard: undefined, whole: ['env-a', 'env-b'] },
    { label: 'auto on the embedded engine (its memory)', config: { paymentsRead: 'auto', wallets: [], db: true }, shard: undefined, whole: [], server: false },
    { label: 'environment on the embedded engine', config: { paymentsRead: 'environment', wallets: [], db: true }, shard: undefined, whole: ['env-a', 'env-b'], server: false },
    { label: 'auto on the spool (its report finds a wallet by stream)', config: { paymentsRead: 'auto', wallets: [], db: false }, shard: undefined, whole: [] },
    { label: 'environment on the spool', config: { paymentsRead: 'environment', wallets: [], db: false }, shard: undefined, whole: ['env-a', 'env-b'] },
    { label: 'wallet', config: { paymentsRead: 'wallet', wallets: [], db: true }, shard: undefined, whole: [] },
    { label: 'a --wallet filter, even with environment', config: { paymentsRead: 'environment', wallets: ['w-1'], db: true }, shard: undefined, whole: [] },
    { label: 'a --shard, even with environment', config: { paymentsRead: 'environment', wallets: [], db: true }, shard: { index: 0, count: 2 }, whole: [] },
  ] as const)('$label', (c) => {
    expect(wholeEnvironments(c.config, c.shard, discovery, 'server' in c && c.server === false ? false : true)).toEqual(c.whole);
  });
});
