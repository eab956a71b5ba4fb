/**
 * Discovery for a job: the wallets and environments the configured credentials can see, scoped by
 * `--wallet` and the shard (the live run and the dry run's plan see the same scope).
 */
import { discover, discoverWallets, type Discovery, type DiscoveryInput } from '../extract/wallets.js';
import type { Shard } from '../util/shard.js';
import type { ApiSet } from './api-clients.js';
import type { JobEnv } from './job-env.js';
import { bindNormalizers } from './normalizers.js';

function discoveryInput(env: JobEnv, apis: ApiSet, organizationId: string, shard: Shard | undefined): DiscoveryInput {
  const { config } = env.loaded;
  return {
    organizationId,
    readers: apis.readers,
    // configured environments already restrict discovery: each has its own reader
    environmentIds: [],
    walletIds: config.wallets,
    shard,
    normalize: bindNormalizers(organizationId),
    concurrency: config.concurrency,
  };
}

/** The scope whole, the wallets' fee policies read (the dry run's plan). */
export function discoverScope(env: JobEnv, apis: ApiSet, organizationId: string, shard: Shard | undefined): Promise<Discovery> {
  return discover(discoveryInput(env, apis, organizationId, shard));
}

/** The scope, with the read of the wallets' fee policies left for the pull to run beside it (extract/wallets.ts). */
export function discoverScopeWallets(env: JobEnv, apis: ApiSet, organizationId: string, shard: Shard | undefined): Promise<{ discovery: Discovery; readPolicies: () => Promise<void> }> {
  return discoverWallets(discoveryInput(env, apis, organizationId, shard));
}
