/**
 * The environments whose payments a run may read whole (extract/streams/environment-payments.ts):
 * those every wallet of which the run pulls. A `--wallet` filter or a `--shard` leaves wallets of an
 * environment out of the run, and an environment-level read would fetch their payments too, so
 * those runs read per wallet, whatever `paymentsRead` says; so does `paymentsRead: "wallet"`
 * (docs/extraction.md#environment-level-payments).
 *
 * `auto` also reads per wallet on the spool (`--no-db`): the spool finds a wallet's payments by the
 * streams that hold them, and every slice of an environment read whole holds every wallet's, so the
 * report would parse each slice once per wallet. `environment` asks for the whole read there anyway.
 */
import type { Config } from '../config/schema.js';
import type { Discovery } from '../extract/wallets.js';
import type { Shard } from '../util/shard.js';

export function wholeEnvironments(config: { paymentsRead: Config['paymentsRead']; wallets: readonly string[]; db: boolean }, shard: Shard | undefined, discovery: Pick<Discovery, 'environments'>): string[] {
  if (config.paymentsRead === 'wallet' || config.wallets.length > 0 || shard !== undefined) return [];
  if (config.paymentsRead === 'auto' && !config.db) return [];
  return [...discovery.environments];
}
