/**
 * The environments whose payments a run may read whole (extract/streams/environment-payments.ts):
 * those every wallet of which the run pulls. A `--wallet` filter or a `--shard` leaves wallets of an
 * environment out of the run, and an environment-level read would fetch their payments too, so
 * those runs read per wallet, whatever `paymentsRead` says; so does `paymentsRead: "wallet"`
 * (docs/extraction.md#environment-level-payments).
 *
 * `auto` also reads per wallet on the spool (`--no-db`): the spool finds a wallet's payments by the
 * streams that hold them, and every slice of an environment read whole holds every wallet's, so the
 * report would parse each slice once per wallet. And on the embedded engine: its pages are committed
 * in groups (store/commit-group.ts), so full pages of 500 payments from every chain at once grew the
 * engine's WebAssembly memory, which never shrinks, past the job's memory bound. `environment`
 * asks for the whole read on either anyway.
 */
import type { Config } from '../config/schema.js';
import type { Discovery } from '../extract/wallets.js';
import type { Shard } from '../util/shard.js';

/** `server`: the snapshot is a Postgres server (not the embedded engine, not the spool) */
export function wholeEnvironments(config: { paymentsRead: Config['paymentsRead']; wallets: readonly string[]; db: boolean }, shard: Shard | undefined, discovery: Pick<Discovery, 'environments'>, server: boolean): string[] {
  if (config.paymentsRead === 'wallet' || config.wallets.length > 0 || shard !== undefined) return [];
  if (config.paymentsRead === 'auto' && !(config.db && server)) return [];
  return [...discovery.environments];
}
