/**
 * Discovery: the API has no environment list, so environments come from the wallets'
 * `environment_id` (inactive wallets included — their history is still in the books). Also the
 * pre-flight check of `--wallet` values: an id the key cannot see is a usage error, before any pull,
 * and each wallet's processing-fee policy (endpoint 8, one request per wallet in scope), the
 * current-rate evidence of the fee-rate history.
 */
import { getWalletPolicies, listAssets, listWallets } from '../api/endpoints.js';
import type { ApiReader } from '../api/endpoints.js';
import { Flags } from '../normalize/flags.js';
import type { AssetRow, WalletRow } from '../model/rows.js';
import { normalizeFeePolicy } from '../normalize/wallet-policy.js';
import { chainWidth } from './chain-budget.js';
import { WorkQueue } from './work-queue.js';
import { usageError } from '../util/errors.js';
import { inShard, type Shard } from '../util/shard.js';
import type { Normalizers } from './context.js';

export interface DiscoveryInput {
  organizationId: string;
  /** one reader per configured environment; `undefined` key = the organization-wide credential */
  readers: ReadonlyArray<{ environmentId: string | undefined; api: ApiReader }>;
  /** `--environment` values (empty = every environment that holds a wallet) */
  environmentIds: readonly string[];
  /** `--wallet` values (empty = every wallet) */
  walletIds: readonly string[];
  shard: Shard | undefined;
  normalize: Pick<Normalizers, 'wallet' | 'asset'>;
  /**
   * `--concurrency` (requests in flight at the service; default 8, the configuration's): the
   * policies are read through the pull's own pool, as wide as the pull's (chain-budget.ts)
   */
  concurrency?: number;
}

export interface Discovery {
  /** every wallet the credentials can see, sorted by id (for the report: all shards) */
  allWallets: WalletRow[];
  /** the wallets this run pulls: scope filters and the shard applied */
  wallets: WalletRow[];
  /** environments holding the pulled wallets, sorted */
  environments: string[];
  assets: AssetRow[];
}

export async function discover(input: DiscoveryInput): Promise<Discovery> {
  // One request per configured environment (a handful) and the assets, all at once: discovery is
  // the only part of a run with nothing else to overlap it.
  const first = input.readers[0];
  const [lists, assetList] = await Promise.all([
    Promise.all(input.readers.map(({ environmentId, api }) => listWallets(api, { organizationId: input.organizationId, inactive: true, ...(environmentId ? { environmentId } : {}) }))),
    first ? listAssets(first.api, input.organizationId) : Promise.resolve(null),
  ]);
  const byId = new Map<string, WalletRow>();
  for (const raw of lists) {
    for (const wallet of raw) {
      const row = input.normalize.wallet(wallet);
      byId.set(row.wallet_id, row);
    }
  }
  const allWallets = [...byId.values()].sort((a, b) => (a.wallet_id < b.wallet_id ? -1 : 1));

  for (const id of input.walletIds) {
    if (!byId.has(id.toLowerCase()) && !byId.has(id)) {
      throw usageError('unknown_wallet', `wallet ${id} was not found for this organization and key`, { wallet_id: id });
    }
  }
  const envFilter = new Set(input.environmentIds.map((e) => e.toLowerCase()));
  const walletFilter = new Set(input.walletIds.map((w) => w.toLowerCase()));
  const inScope = allWallets.filter(
    (w) => (envFilter.size === 0 || envFilter.has(w.environment_id.toLowerCase())) && (walletFilter.size === 0 || walletFilter.has(w.wallet_id.toLowerCase())),
  );
  for (const env of envFilter) {
    if (!allWallets.some((w) => w.environment_id.toLowerCase() === env)) {
      throw usageError('unknown_environment', `environment ${env} holds no wallet visible to this key`, { environment_id: env });
    }
  }
  // Every shard reads the policies of every wallet in scope: each writes all of them (allWallets).
  const readerFor = (w: WalletRow): ApiReader | undefined => (input.readers.find((r) => r.environmentId === w.environment_id) ?? input.readers.find((r) => r.environmentId === undefined) ?? first)?.api;
  const policies = new WorkQueue<WalletRow>(chainWidth(input.concurrency ?? 8), async (wallet) => {
    const api = readerFor(wallet);
    if (api === undefined) return;
    const flags = new Flags();
    wallet.fee_policy = normalizeFeePolicy(await getWalletPolicies(api, input.organizationId, wallet.wallet_id), flags);
    for (const flag of flags.toArray()) if (!wallet.flags.includes(flag)) wallet.flags.push(flag);
  });
  for (const wallet of inScope) policies.push(wallet, 0);
  await policies.drain();
  const wallets = inScope.filter((w) => inShard(w.wallet_id, input.shard));
  const environments = [...new Set(inScope.map((w) => w.environment_id))].sort();

  const assets = assetList ? assetList.assets.map((a) => input.normalize.asset(a)) : [];
  return { allWallets: inScope, wallets, environments, assets };
}
