/**
 * One report window through the subledger: every event from the snapshot's first up to the
 * window's end is applied in order (events before the window build the opening lots; they are
 * never reported again), and per wallet and currency the figures the files and the tie-outs need
 * are kept: lots and cost at the window's start and end, what the window added, relieved and moved
 * out, its relief lines, and the journal's values of its movements (the roll-forward's additions,
 * dispositions and transfers between tracked wallets).
 */
import { windowContains, type Window } from '../model/window.js';
import type { RecordedFigures } from '../model/lots-record.js';
import { inOrder } from './event-order.js';
import type { Movement } from './events.js';
import type { Lot, LotEvent, ReliefLine } from './model.js';
import type { LotNote, Subledger } from './subledger.js';

/** A wallet's figures of a period: the same shape the snapshot records for a closed one (model/lots-record.ts). */
export type WalletFigures = RecordedFigures;

export interface PeriodRun {
  reliefs: ReliefLine[];
  notes: LotNote[];
  closing: Lot[];
  figures: Map<string, WalletFigures>;
  /** per figureKey, gains realized by the run's events before the window (an export from the 10th: the 1st to the 9th) */
  realizedBefore?: Map<string, bigint>;
  /** the window's units per wallet and currency (the Crypto assets sheet's units roll-forward) */
  units: Map<string, UnitFlows>;
}

/** Base units that came in and went out of a wallet in the window. */
export interface UnitFlows {
  /** lots acquired: receives, deposits, swaps */
  acquired: bigint;
  /** relieved by disposals (their relief lines: sends and their fees, withdrawals, transfer fees) */
  disposed: bigint;
  /** lots received from another tracked wallet, and sent to one */
  transferredIn: bigint;
  transferredOut: bigint;
}

export const figureKey = (walletId: string, currency: string): string => `${walletId}|${currency}`;

/**
 * `cumulativeFrom`: per figureKey, the realized gain to date a recorded closed period ended with
 * (when the ledger was seeded from its closing lots, the events before it are not replayed).
 */
export function runPeriod(ledger: Subledger, events: readonly LotEvent[], movements: readonly Movement[], paired: ReadonlySet<Movement>, window: Window, cumulativeFrom: ReadonlyMap<string, bigint> = new Map()): PeriodRun {
  const figures = new Map<string, WalletFigures>();
  const fig = (walletId: string, currency: string): WalletFigures => {
    const key = figureKey(walletId, currency);
    let f = figures.get(key);
    if (f === undefined) {
      f = { walletId, currency, openingUnits: 0n, openingCost: 0n, addedCost: 0n, relievedCost: 0n, movedOutCost: 0n, additions: 0n, dispositions: 0n, transfersNet: 0n, realizedGain: 0n, cumulativeRealizedGain: 0n };
      figures.set(key, f);
    }
    return f;
  };
  for (const [key, gain] of cumulativeFrom) {
    const [walletId = '', currency = ''] = key.split('|');
    fig(walletId, currency).cumulativeRealizedGain = gain;
  }
  const reliefs: ReliefLine[] = [];
  const notes: LotNote[] = [];
  const realizedBefore = new Map<string, bigint>();
  const units = new Map<string, UnitFlows>();
  const flows = (walletId: string, currency: string): UnitFlows => {
    const key = figureKey(walletId, currency);
    const u = units.get(key) ?? { acquired: 0n, disposed: 0n, transferredIn: 0n, transferredOut: 0n };
    units.set(key, u);
    return u;
  };
  let opened = false;
  const open = (): void => {
    if (opened) return;
    opened = true;
    for (const lot of ledger.held()) {
      const f = fig(lot.walletId, lot.currency);
      f.openingUnits += lot.units;
      f.openingCost += lot.cost ?? 0n;
    }
  };
  for (const event of inOrder(events)) {
    if (event.at >= window.to) break;
    const inWindow = windowContains(window, event.at);
    if (inWindow) open();
    const applied = ledger.apply(event);
    for (const r of applied.reliefs) fig(r.walletId, r.currency).cumulativeRealizedGain += r.gain ?? 0n;
    if (!inWindow) {
      for (const r of applied.reliefs) realizedBefore.set(figureKey(r.walletId, r.currency), (realizedBefore.get(figureKey(r.walletId, r.currency)) ?? 0n) + (r.gain ?? 0n));
      continue;
    }
    notes.push(...applied.notes);
    for (const a of applied.added) {
      fig(a.walletId, a.currency).addedCost += a.cost ?? 0n;
      // a transfer's lots arrive as transfer_in (or unknown, without a basis): its added lots are all transferred in
      if (event.type === 'transfer') flows(a.walletId, a.currency).transferredIn += a.units;
      else flows(a.walletId, a.currency).acquired += a.units;
    }
    for (const m of applied.movedOut) {
      fig(m.walletId, m.currency).movedOutCost += m.cost ?? 0n;
      flows(m.walletId, m.currency).transferredOut += m.units;
    }
    for (const r of applied.reliefs) {
      flows(r.walletId, r.currency).disposed += r.units;
      const f = fig(r.walletId, r.currency);
      f.relievedCost += r.cost ?? 0n;
      f.realizedGain += r.gain ?? 0n;
      reliefs.push(r);
    }
  }
  open();
  addMovementValues(fig, movements, paired, window);
  const closing = ledger.held();
  for (const lot of closing) fig(lot.walletId, lot.currency);
  notes.push(...unknownHeldNotes(closing, window));
  return { reliefs, notes, closing, figures, realizedBefore, units };
}

/**
 * The journal's values of the window's movements, beside the lots' costs: what came in and went
 * out of each wallet (additions, dispositions) and what moved between the company's own wallets
 * and custody (transfersNet). A movement that needs a price leaves its figure unknown (null).
 */
function addMovementValues(fig: (walletId: string, currency: string) => WalletFigures, movements: readonly Movement[], paired: ReadonlySet<Movement>, window: Window): void {
  for (const m of movements) {
    if (!windowContains(window, m.entry.postedAt)) continue;
    const f = fig(m.entry.walletId, m.currency);
    const add = (field: 'additions' | 'dispositions' | 'transfersNet', value: bigint | null, sign = 1n): void => {
      f[field] = f[field] === null || value === null ? null : (f[field] as bigint) + sign * value;
    };
    const wallet = m.entry.lines.find((l) => l.component === 'wallet');
    // to or from the company's own custody wallet: out of the service's wallets, into the custody wallet (and back)
    if (m.custody !== undefined) {
      add('transfersNet', wallet?.amount ?? null, m.inflow ? 1n : -1n);
      const there = fig(m.custody, m.currency);
      there.transfersNet = there.transfersNet === null || wallet?.amount === null || wallet === undefined ? null : there.transfersNet + (m.inflow ? -wallet.amount : wallet.amount);
    }
    else if (!paired.has(m)) add(m.inflow ? 'additions' : 'dispositions', wallet?.amount ?? null);
    else if (m.inflow) add('transfersNet', wallet?.amount ?? null);
    else {
      // the principal moves between wallets; the fees leave the company
      for (const l of m.entry.lines) if (l.component === 'principal') add('transfersNet', l.amount, -1n);
      else if (l.component !== 'wallet') add('dispositions', l.amount, l.side === 'debit' ? 1n : -1n);
    }
  }
}

/** A lot of unknown basis from before the window, still held, is reported every period until the user gives its basis. */
export function unknownHeldNotes(closing: readonly Lot[], window: Window): LotNote[] {
  const notes: LotNote[] = [];
  for (const lot of closing) if (lot.cost === null && lot.acquiredAt < window.from) notes.push({ code: 'basis_unknown', walletId: lot.walletId, currency: lot.currency, ref: lot.lotId, units: lot.units, message: `lot ${lot.lotId} (${lot.origin}, acquired ${lot.acquiredAt}) has no known cost basis` });
  return notes;
}
