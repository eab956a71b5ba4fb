/**
 * Period discipline for the subledger (docs/lots.md "Closed periods"), as the journal's: what a
 * closing month-end computed is recorded in the snapshot (src/model/lots-record.ts) and never
 * recomputed. This file turns a period run into its record and back:
 *
 *   the period is recorded            → its folder (an amended re-run) shows the record as is
 *   an earlier period is recorded     → each wallet starts from its recorded closing lots, and
 *                                        only the movements after that period are read and applied
 *   nothing recorded                  → the whole history, as before
 */
import type { LotPeriodRecord } from '../model/lots-record.js';
import type { Window } from '../model/window.js';
import type { Lot, ReliefLine } from './model.js';
import { figureKey, unknownHeldNotes, type PeriodRun, type UnitFlows, type WalletFigures } from './period-run.js';
import type { LotNote } from './subledger.js';

export function periodRecord(run: PeriodRun, period: string, window: Window): LotPeriodRecord {
  const noFlows = { acquired: 0n, disposed: 0n, transferredIn: 0n, transferredOut: 0n };
  const figures = [...run.figures.values()].map((f) => ({ ...f, unitFlows: { ...(run.units.get(figureKey(f.walletId, f.currency)) ?? noFlows) } }));
  return { period, windowFrom: window.from, windowTo: window.to, figures, lots: run.closing, reliefs: run.reliefs, notes: run.notes.map((n) => ({ ...n })) };
}

/** The recorded period as the run the files and the checks are written from (nothing recomputed). */
export function recordedRun(record: LotPeriodRecord, window: Window): PeriodRun {
  // the record was written from these very types (periodRecord); the model layer only widens the unions
  const closing = record.lots as Lot[];
  const reliefs = record.reliefs as ReliefLine[];
  const figures = new Map<string, WalletFigures>(record.figures.map(({ unitFlows: _flows, ...f }) => [figureKey(f.walletId, f.currency), { ...f }]));
  // the findings as the close made them; a period recorded before they were (migration 013) derives them
  const notes: LotNote[] = record.notes !== undefined ? (record.notes as LotNote[]) : [
    ...reliefs.filter((r) => r.cost === null).map((r): LotNote => ({ code: 'basis_unknown', walletId: r.walletId, currency: r.currency, ref: r.disposalRef, units: r.units, message: `${r.disposalRef} relieved ${r.units} base units of unknown basis (as recorded when the period closed)` })),
    ...unknownHeldNotes(closing, window),
  ];
  return { reliefs, notes, closing, figures, units: recordedUnits(record, reliefs) };
}

/**
 * The unit flows the close recorded (migration 012). A period recorded before them kept none: what
 * its relief lines disposed of is known, and what came in is what the units held grew by beyond that. A transfer between two tracked wallets shows as a
 * receiver's acquisition and a sender's negative one; per currency they cancel, and the Crypto
 * assets sheet shows currencies.
 */
function recordedUnits(record: LotPeriodRecord, reliefs: readonly ReliefLine[]): Map<string, UnitFlows> {
  if (record.figures.length > 0 && record.figures.every((f) => f.unitFlows !== undefined)) {
    return new Map(record.figures.map((f) => [figureKey(f.walletId, f.currency), { ...(f.unitFlows as UnitFlows) }]));
  }
  const units = new Map<string, UnitFlows>();
  const flows = (key: string): UnitFlows => {
    const u = units.get(key) ?? { acquired: 0n, disposed: 0n, transferredIn: 0n, transferredOut: 0n };
    units.set(key, u);
    return u;
  };
  for (const f of record.figures) flows(figureKey(f.walletId, f.currency)).acquired -= f.openingUnits;
  for (const l of record.lots) flows(figureKey(l.walletId, l.currency)).acquired += l.units;
  for (const r of reliefs) {
    const u = flows(figureKey(r.walletId, r.currency));
    u.disposed += r.units;
    u.acquired += r.units;
  }
  return units;
}

/** The recorded cumulative realized gain per wallet and currency, where a seeded run continues it. */
export function cumulativeOf(record: LotPeriodRecord): Map<string, bigint> {
  return new Map(record.figures.map((f) => [figureKey(f.walletId, f.currency), f.cumulativeRealizedGain]));
}
