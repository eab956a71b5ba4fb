/**
 * The subledger: lots per wallet (Treas. Reg. 1.1012-1(j): a disposal from one wallet never
 * relieves another wallet's lot), fed one event at a time in (time, ref) order. Pure and
 * deterministic: the same events give the same lots and reliefs, whatever order they were pulled in
 * (events.ts sorts them). Units are conserved exactly: what a disposal cannot find in the wallet's
 * lots is relieved from an `unknown` lot and noted (lots.basis_unknown), never given a zero cost.
 */
import type { DisposalLeg, Lot, LotEvent, OpeningLot, ReliefLine } from './model.js';
import { identifiedOrder, NO_IDENTIFICATIONS, type Identifications } from './identification.js';
import { lotId } from './lot-id.js';
import { methodAt, ordered, type MethodPeriod } from './method.js';
import { averageInPlace, relieve, shareByUnits } from './relief.js';
import { holdingTerm, UTC_DAY, type LocalDay } from './term.js';

export interface SubledgerOptions {
  /** per wallet id: its methods by effective date (absent: fifo) */
  methods: ReadonlyMap<string, readonly MethodPeriod[]>;
  identifications?: Identifications;
  /** the books' calendar the holding period is counted in (term.ts); default UTC's */
  day?: LocalDay;
}

export type LotNoteCode = 'basis_unknown' | 'identification_late';

export interface LotNote {
  code: LotNoteCode;
  walletId: string;
  currency: string;
  ref: string;
  units: bigint;
  message: string;
}

/** What one event did: relief lines of disposals, lots added, cost moved out by a transfer. */
export interface Applied {
  reliefs: ReliefLine[];
  /** the lots as added (units and cost at acquisition) */
  added: Lot[];
  /** lots moved out by a treasury transfer (units and cost as they left the sender) */
  movedOut: Lot[];
  /** base units relieved beyond what the wallet held (from unknown lots made for them) */
  shortfall: bigint;
  notes: LotNote[];
}

interface Slice {
  lot: Lot;
  units: bigint;
  cost: bigint | null;
}

export class Subledger {
  private readonly lots = new Map<string, Lot[]>();
  private readonly depositBasis = new Map<string, OpeningLot>();
  private readonly ids: Identifications;

  constructor(private readonly options: SubledgerOptions, openings: readonly OpeningLot[] = []) {
    this.ids = options.identifications ?? NO_IDENTIFICATIONS;
    for (const [i, o] of openings.entries()) {
      if (o.ref !== null) {
        this.depositBasis.set(`${o.walletId}|${o.ref}`, o);
        continue;
      }
      this.walletLots(o.walletId, o.currency).push({ lotId: lotId(o.walletId, 'opening', String(i), o.acquiredAt, String(o.units)), walletId: o.walletId, currency: o.currency, acquiredAt: o.acquiredAt, origin: o.cost === null ? 'unknown' : 'opening', units: o.units, cost: o.cost });
    }
    // Seated as every later period seats them (held() order), not in the file's order: a chain of
    // closes whose first month has no movement seeds its next month from held(), and a replay
    // whose first month with movements comes later must relieve the same way. Two opening lots of
    // one date under `average` or FIFO took their shared cent in file order in one and lot order in
    // the other (the first-close property's counterexample, docs/lots.md "The replay").
    this.reseat();
  }

  /**
   * Starts from lots a closed period recorded (the snapshot's lot_closings), exactly as they were
   * held at its end: same ids, dates, units and cost. Only before the first event.
   */
  seed(lots: readonly Lot[]): void {
    for (const l of lots) this.walletLots(l.walletId, l.currency).push({ ...l });
  }

  /**
   * What a close and the next run's seed do to the lots between two periods: the lots held are
   * recorded in held() order and the next run starts from that list (emptied lots gone). The
   * replay of earlier months (replay-months.ts) does the same at each month's end, so it relieves
   * exactly as the chain of closes would (the order matters to `average`, and to ties).
   */
  reseat(): void {
    const held = this.held();
    this.lots.clear();
    this.seed(held);
  }

  /** Copies of the lots held now (units > 0), per wallet and currency, in acquisition order. */
  held(walletId?: string): Lot[] {
    const out: Lot[] = [];
    for (const lots of this.lots.values()) for (const l of lots) if (l.units > 0n && (walletId === undefined || l.walletId === walletId)) out.push({ ...l });
    return out.sort((a, b) => (a.walletId < b.walletId ? -1 : a.walletId > b.walletId ? 1 : a.acquiredAt < b.acquiredAt ? -1 : a.acquiredAt > b.acquiredAt ? 1 : a.lotId < b.lotId ? -1 : 1));
  }

  apply(event: LotEvent): Applied {
    const applied: Applied = { reliefs: [], added: [], movedOut: [], shortfall: 0n, notes: [] };
    if (event.type === 'acquire') this.acquire(event, applied);
    else if (event.type === 'dispose') this.dispose(event.walletId, event.currency, event.at, event.ref, event.legs, applied);
    else {
      for (const slice of this.take(event.walletId, event.currency, event.units, event.at, event.ref, applied)) {
        applied.movedOut.push({ ...slice.lot, units: slice.units, cost: slice.cost });
        const lot: Lot = { lotId: lotId(slice.lot.lotId, event.ref, event.toWalletId), walletId: event.toWalletId, currency: event.currency, acquiredAt: slice.lot.acquiredAt, origin: slice.cost === null ? 'unknown' : 'transfer_in', units: slice.units, cost: slice.cost };
        this.walletLots(event.toWalletId, event.currency).push(lot);
        applied.added.push({ ...lot });
      }
      this.dispose(event.walletId, event.currency, event.at, event.ref, event.fees, applied);
    }
    // a late movement of a closed period: its relief lines say which period it belongs to
    if (event.lateFrom !== undefined) for (const r of applied.reliefs) r.lateFrom = event.lateFrom;
    return applied;
  }

  private acquire(event: Extract<LotEvent, { type: 'acquire' }>, applied: Applied): void {
    if (event.units <= 0n) return;
    let cost = event.cost;
    let acquiredAt = event.at;
    const basis = event.origin === 'deposit' ? this.depositBasis.get(`${event.walletId}|${event.ref}`) : undefined;
    if (event.origin === 'deposit') {
      // coins bought elsewhere and deposited keep their own acquisition date and cost (the file's row)
      cost = basis?.cost ?? null;
      acquiredAt = basis?.acquiredAt ?? event.at;
    }
    const lot: Lot = { lotId: lotId(event.walletId, event.ref), walletId: event.walletId, currency: event.currency, acquiredAt, origin: cost === null ? 'unknown' : event.origin, units: event.units, cost };
    if (cost === null) {
      // a row whose cost is `unknown` (init's template until the accountant fills it) is not a missing row
      const why = event.origin === 'deposit' ? (basis === undefined ? 'a deposit with no row in the opening-lots file' : 'a deposit whose opening-lots row says its cost is unknown') : `a ${event.origin} with no price`;
      applied.notes.push({ code: 'basis_unknown', walletId: event.walletId, currency: event.currency, ref: event.ref, units: event.units, message: `${event.ref}: ${why}; its ${event.units} base units form an unknown lot` });
    }
    this.walletLots(event.walletId, event.currency).push(lot);
    applied.added.push({ ...lot });
  }

  private dispose(walletId: string, currency: string, at: string, ref: string, legs: readonly DisposalLeg[], applied: Applied): void {
    for (const leg of legs) {
      if (leg.units <= 0n) continue;
      const slices = this.take(walletId, currency, leg.units, at, ref, applied);
      const proceeds = leg.proceeds === null ? null : shareByUnits(leg.proceeds, slices.map((s) => s.units));
      slices.forEach((s, i) => {
        const p = proceeds === null ? null : (proceeds[i] as bigint);
        applied.reliefs.push({ walletId, currency, disposalRef: ref, part: leg.part, disposedAt: at, lotId: s.lot.lotId, acquiredAt: s.lot.acquiredAt, units: s.units, proceeds: p, cost: s.cost, gain: p === null || s.cost === null ? null : p - s.cost, term: holdingTerm(s.lot.acquiredAt, at, this.options.day ?? UTC_DAY) });
      });
    }
  }

  /** Relieves `units` from the wallet's lots in its method's order; a shortfall comes from an unknown lot. */
  private take(walletId: string, currency: string, units: bigint, at: string, ref: string, applied: Applied): Slice[] {
    const lots = this.walletLots(walletId, currency);
    const method = methodAt(this.options.methods.get(walletId), at);
    let queue: Lot[];
    if (method === 'specific') {
      const chosen = identifiedOrder(this.ids, walletId, ref, at);
      // one note per disposal, not one per leg
      if (chosen.late !== null && !applied.notes.some((n) => n.code === 'identification_late' && n.ref === ref)) applied.notes.push({ code: 'identification_late', walletId, currency, ref, units, message: `the identification of ${ref} was recorded at ${chosen.late.recordedAt}, after the disposal at ${at}: refused, the standing order (${chosen.order}) applies` });
      const named = chosen.lotIds.map((id) => lots.find((l) => l.lotId === id && l.units > 0n)).filter((l): l is Lot => l !== undefined);
      queue = [...named, ...ordered(lots, chosen.order).filter((l) => !named.includes(l))];
    } else {
      if (method === 'average') averageInPlace(lots);
      queue = ordered(lots, method === 'average' || method === 'fifo' ? 'fifo' : method);
    }
    const slices: Slice[] = [];
    let left = units;
    for (const lot of queue) {
      if (left === 0n) break;
      const n = lot.units < left ? lot.units : left;
      slices.push({ lot: { ...lot }, units: n, cost: relieve(lot, n) });
      left -= n;
    }
    if (left > 0n) {
      const lot: Lot = { lotId: lotId(walletId, 'unknown', ref), walletId, currency, acquiredAt: at, origin: 'unknown', units: 0n, cost: null };
      slices.push({ lot, units: left, cost: null });
      applied.shortfall += left;
      applied.notes.push({ code: 'basis_unknown', walletId, currency, ref, units: left, message: `${ref} disposes of ${left} base units more than the wallet's lots hold: they come from an unknown lot` });
    }
    return slices;
  }

  private walletLots(walletId: string, currency: string): Lot[] {
    const key = `${walletId}|${currency}`;
    let lots = this.lots.get(key);
    if (lots === undefined) {
      lots = [];
      this.lots.set(key, lots);
    }
    return lots;
  }
}
