/**
 * The one order the subledger applies events in: by time, then by ledger ref (a stable tie-break
 * for two movements at the same microsecond). Pages arrive in whatever order the pull delivered
 * them; sorting here is what makes lots and reliefs independent of it.
 */
import type { LotEvent } from './model.js';

export function compareEvents(a: LotEvent, b: LotEvent): number {
  if (a.at !== b.at) return a.at < b.at ? -1 : 1;
  if (a.ref !== b.ref) return a.ref < b.ref ? -1 : 1;
  return a.walletId < b.walletId ? -1 : a.walletId > b.walletId ? 1 : 0;
}

export function inOrder(events: readonly LotEvent[]): LotEvent[] {
  return [...events].sort(compareEvents);
}
