/**
 * The reference history (test/unit/lots/reference/history.json) as subledger input, and the
 * subledger's output rendered as the text the hand-computed `*.expected` files hold. Lots are
 * named by label (O1, R1, R1>B …) so a person can compute the expected files without hashes.
 */
import { readFileSync } from 'node:fs';
import type { Identifications } from '../../../src/lots/identification.js';
import { lotId } from '../../../src/lots/lot-id.js';
import type { MethodPeriod } from '../../../src/lots/method.js';
import type { DisposalLeg, LotEvent, OpeningLot } from '../../../src/lots/model.js';
import { Subledger, type LotNote } from '../../../src/lots/subledger.js';
import { inOrder } from '../../../src/lots/event-order.js';

interface RawLeg { part: DisposalLeg['part']; units: string; proceeds: string | null }
interface RawEvent { type: LotEvent['type']; wallet: string; to?: string; at: string; ref: string; origin?: 'receive' | 'swap' | 'deposit'; units?: string; cost?: string | null; legs?: RawLeg[]; fees?: RawLeg[] }
interface RawHistory {
  openings: Array<{ wallet: string; acquiredAt: string; units: string; cost: string | null }>;
  events: RawEvent[];
  identifications: { standingOrders: Array<{ wallet: string; from: string; order: 'fifo' | 'lifo' | 'hifo' }>; identifications: Array<{ wallet: string; disposal: string; recordedAt: string; lots: string[] }> };
}

export const REFERENCE_DIR = new URL('../../unit/lots/reference/', import.meta.url);

export function readHistory(): RawHistory {
  return JSON.parse(readFileSync(new URL('history.json', REFERENCE_DIR), 'utf8')) as RawHistory;
}

const leg = (l: RawLeg): DisposalLeg => ({ part: l.part, units: BigInt(l.units), proceeds: l.proceeds === null ? null : BigInt(l.proceeds) });

export function historyInput(h: RawHistory): { openings: OpeningLot[]; events: LotEvent[] } {
  const openings = h.openings.map((o): OpeningLot => ({ walletId: o.wallet, currency: 'btc', acquiredAt: o.acquiredAt, units: BigInt(o.units), cost: o.cost === null ? null : BigInt(o.cost), ref: null }));
  const events = h.events.map((e): LotEvent => {
    if (e.type === 'acquire') return { type: 'acquire', walletId: e.wallet, currency: 'btc', at: e.at, ref: e.ref, origin: e.origin as 'receive', units: BigInt(e.units as string), cost: e.cost === null || e.cost === undefined ? null : BigInt(e.cost) };
    if (e.type === 'dispose') return { type: 'dispose', walletId: e.wallet, currency: 'btc', at: e.at, ref: e.ref, legs: (e.legs ?? []).map(leg) };
    return { type: 'transfer', walletId: e.wallet, toWalletId: e.to as string, currency: 'btc', at: e.at, ref: e.ref, units: BigInt(e.units as string), fees: (e.fees ?? []).map(leg) };
  });
  return { openings, events };
}

/** label ↔ lot id: openings O1…, acquisitions by their ref's id (credited:R1 → R1), transferred lots `<label>>B`. */
export function labels(h: RawHistory): Map<string, string> {
  const byLabel = new Map<string, string>();
  h.openings.forEach((o, i) => byLabel.set(`O${i + 1}`, lotId(o.wallet, 'opening', String(i), o.acquiredAt, o.units)));
  for (const e of h.events) if (e.type === 'acquire') byLabel.set(e.ref.split(':')[1] as string, lotId(e.wallet, e.ref));
  for (const e of h.events) {
    if (e.type !== 'transfer') continue;
    for (const [label, id] of [...byLabel]) byLabel.set(`${label}>${e.to}`, lotId(id, e.ref, e.to as string));
  }
  return byLabel;
}

export function identificationsOf(h: RawHistory, byLabel: Map<string, string>): Identifications {
  return {
    standingOrders: h.identifications.standingOrders.map((s) => ({ walletId: s.wallet, from: s.from, order: s.order })),
    identifications: h.identifications.identifications.map((i) => ({ walletId: i.wallet, disposalRef: i.disposal, recordedAt: i.recordedAt, lotIds: i.lots.map((l) => byLabel.get(l) as string) })),
  };
}

/** Runs the history under `methods` and renders what the expected files hold. */
export function runReference(methods: ReadonlyMap<string, readonly MethodPeriod[]>, withIdentifications: boolean, order: (events: LotEvent[]) => LotEvent[] = (e) => e): string {
  const h = readHistory();
  const byLabel = labels(h);
  const byId = new Map([...byLabel].map(([label, id]) => [id, label]));
  const name = (id: string): string => byId.get(id) ?? `?${id}`;
  const { openings, events } = historyInput(h);
  const ledger = new Subledger({ methods, ...(withIdentifications ? { identifications: identificationsOf(h, byLabel) } : {}) }, openings);
  const reliefs: string[] = [];
  const moved: string[] = [];
  const notes: LotNote[] = [];
  const opt = (v: bigint | null): string => (v === null ? '?' : String(v));
  for (const event of inOrder(order(events))) {
    const applied = ledger.apply(event);
    for (const r of applied.reliefs) reliefs.push([r.disposalRef, r.part, name(r.lotId), r.acquiredAt.slice(0, 10), r.units, opt(r.proceeds), opt(r.cost), opt(r.gain), r.term].join(','));
    for (const m of applied.movedOut) moved.push([event.ref, name(m.lotId), m.acquiredAt.slice(0, 10), m.units, opt(m.cost)].join(','));
    notes.push(...applied.notes);
  }
  const held = ledger.held().map((l) => [l.walletId, name(l.lotId), l.acquiredAt.slice(0, 10), l.origin, l.units, opt(l.cost)].join(','));
  return ['reliefs', ...reliefs, 'moved', ...moved, 'held', ...held, 'notes', ...notes.map((n) => [n.code, n.ref, n.units].join(','))].join('\n') + '\n';
}
