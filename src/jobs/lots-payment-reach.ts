/**
 * The payments the lots pass needs in the snapshot (docs/lots.md "The replay"). The subledger
 * replays every movement of a tracked wallet since the last recorded close (the whole history on a
 * first close), and it values and splits each one as that movement's own month-end did: with its
 * payment (its quote, its principal/fee split, its treasury pairing, its swap route). That month-end
 * held the payment because it pulled its month's payments and the orphans its month's ledger named;
 * a first close pulls only its own month, so the ledger entries before it would name payments the
 * snapshot does not hold. Those are orphans of the lots' reach instead of the window's: from the
 * start of the latest recorded period (whose late movements the run looks for) or from the first
 * event. Many of them (a first close) are swept by list over the creation range before the window;
 * the rest are read by id. Once held, they are not read again: a chain of closes reads none.
 */
import { mappedAccount } from '../journal/build-context.js';
import type { Config } from '../config/schema.js';
import type { TimeRange } from '../extract/time-slices.js';
import type { Snapshot } from '../model/ports.js';
import type { WalletRow } from '../model/rows.js';
import type { Window } from '../model/window.js';

const EPOCH = '0001-01-01T00:00:00.000000Z';

export interface OrphanReach {
  /** the window whose ledger entries' payments the pull reads when the snapshot lacks them */
  window(wallet: WalletRow): Window;
  /** the creation range swept by list when those are many (null: by id only) */
  sweep(wallet: WalletRow): TimeRange | null;
}

export async function orphanReach(config: Config, snapshot: Snapshot, organizationId: string, window: Window, paymentWindow: Window): Promise<OrphanReach> {
  const journal = config.journal;
  const none: OrphanReach = { window: () => window, sweep: () => null };
  if (config.lots === undefined || journal === undefined) return none;
  const recorded = snapshot.lotsRecord === null ? [] : await snapshot.lotsRecord.periodsEndingBy(organizationId, window.from);
  const from = recorded.at(-1)?.windowFrom ?? EPOCH;
  if (from >= window.from) return none;
  const reach: Window = { ...window, from };
  // before the payments sweep's own range; open at the start on a first close (the whole history)
  const sweep: TimeRange | null = from < paymentWindow.from ? { from: from === EPOCH ? null : from, to: paymentWindow.from } : null;
  const books = journal.booksCurrency.toLowerCase();
  // a tracked wallet: mapped by the journal, in a currency other than the books' (no balances read: tracked)
  const tracked = (wallet: WalletRow): boolean => mappedAccount(journal, wallet.wallet_id) !== null && (wallet.balances.length === 0 || wallet.balances.some((b) => b.currency !== books));
  return { window: (wallet) => (tracked(wallet) ? reach : window), sweep: (wallet) => (tracked(wallet) ? sweep : null) };
}
