/**
 * Discovery for a job: the wallets and environments the configured credentials can see, scoped by
 * `--wallet` and the shard (the live run and the dry run's plan see the same scope).
 */
import { discover, type Discovery } from '../extract/wallets.js';
import type { Shard } from '../util/shard.js';
import type { ApiSet } from './api-clients.js';
import type { JobEnv } from './job-env.js';
import { bindNormalizers } from './normalizers.js';

export async function discoverScope(env: JobEnv, apis: ApiSet, organizationId: string, shard: Shard | undefined): Promise<Discovery> {
  const { config } = env.loaded;
  return discover({
    organizationId,
    readers: apis.readers,
    // configured environments already restrict discovery: each has its own reader
    environmentIds: [],
    walletIds: config.wallets,
    shard,
    normalize: bindNormalizers(organizationId),
    concurrency: config.concurrency,
  });
}
