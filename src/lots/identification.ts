/**
 * Specific identification (Treas. Reg. 1.1012-1(j)(3)): which lots a disposal uses must be
 * identified no later than the disposal. A wallet on `specific` relieves, in this order, the lots
 * an identification recorded at or before the disposal names, then its standing order in force
 * ("highest cost first" = hifo; a standing order counts as an identification made in advance),
 * then fifo. An identification recorded after the disposal is refused (a finding) and not used.
 */
import type { StandingOrder } from './method.js';
import { startOf } from './method.js';

export interface Identification {
  walletId: string;
  disposalRef: string;
  recordedAt: string;
  lotIds: readonly string[];
}

export interface StandingOrderRecord {
  walletId: string;
  from: string;
  order: StandingOrder;
}

export interface Identifications {
  identifications: readonly Identification[];
  standingOrders: readonly StandingOrderRecord[];
}

export const NO_IDENTIFICATIONS: Identifications = { identifications: [], standingOrders: [] };

export interface IdentifiedOrder {
  lotIds: readonly string[];
  order: StandingOrder;
  /** an identification existed but was recorded after the disposal */
  late: Identification | null;
}

export function identifiedOrder(ids: Identifications, walletId: string, disposalRef: string, disposedAt: string): IdentifiedOrder {
  let order: StandingOrder = 'fifo';
  let since = '';
  for (const s of ids.standingOrders) {
    if (s.walletId === walletId && startOf(s.from) <= disposedAt && startOf(s.from) >= since) {
      order = s.order;
      since = startOf(s.from);
    }
  }
  const found = ids.identifications.find((i) => i.walletId === walletId && i.disposalRef === disposalRef);
  if (found === undefined) return { lotIds: [], order, late: null };
  if (startOf(found.recordedAt) > disposedAt) return { lotIds: [], order, late: found };
  return { lotIds: found.lotIds, order, late: null };
}
