/**
 * Which 1 January 2025 allocation a run uses (docs/tax.md "The 1 January 2025 allocation"). The
 * allocation is irrevocable (Rev. Proc. 2024-28, section 4.02(6)), so once a close has recorded it
 * (src/model/lots-record.ts `RecordedAllocation`, migration 015) the opening-lots file no longer
 * decides it:
 *
 *   a recorded period's re-run   → the record's allocation and the close's own check, as is
 *   a run seeded from a close    → that close's allocation, carried forward; the file's rows acquired
 *                                  on or before 31 December 2024 are compared with it, and a
 *                                  difference is one tax.allocation_changed warning
 *   nothing recorded, or a close recorded before migration 015 → the file's, unchecked
 */
import { basename } from 'node:path';
import type { LotPeriodRecord, RecordedAllocation, RecordedAllocationLot } from '../../model/lots-record.js';
import type { OpeningLot } from '../model.js';
import { allocationRows } from './allocation.js';

export interface AllocationUse {
  /** the statement's source (the opening-lots file's name) and rows; null: no statement is written */
  statement: { file: string; rows: readonly OpeningLot[] } | null;
  /** tax.allocation_changed as this run found it: null when it did not run, else its warning (null: none) */
  check: { warning: string | null } | null;
  /** the recorded allocation this run keeps to (the lots' deposit basis too); null: the file decides */
  recorded: readonly OpeningLot[] | null;
  /** what this run records with its period, when it closes one */
  record: RecordedAllocation;
}

/** The opening-lots file as configured (its path and rows), or null without one. */
export type AllocationFile = { file: string; rows: readonly OpeningLot[] } | null;

/** The file's allocation: its rows acquired on or before 31 December 2024 on the books' calendar, in the statement's order. */
function fromFile(file: AllocationFile, day: (instant: string) => string): { file: string; rows: OpeningLot[] } | null {
  return file === null ? null : { file: basename(file.file), rows: allocationRows(file.rows, day).map((r) => r.lot) };
}

const copy = (rows: readonly RecordedAllocationLot[]): OpeningLot[] => rows.map((l) => ({ ...l }));

/** A recorded period's re-run: its close's statement and check; the file's statement, unchecked, for a period recorded before migration 015. */
export function recordedAllocation(stored: LotPeriodRecord, file: AllocationFile, day: (instant: string) => string): AllocationUse {
  const own = stored.allocation;
  if (own === undefined) return unrecorded(fromFile(file, day));
  const statement = own.file === null ? null : { file: own.file, rows: copy(own.lots) };
  return { statement, check: own.check, recorded: copy(own.lots), record: own };
}

/** An open period's run: the allocation of the close it starts from, carried forward and checked against the file; else the file's. */
export function carriedAllocation(seed: LotPeriodRecord | null, file: AllocationFile, day: (instant: string) => string): AllocationUse {
  const current = fromFile(file, day);
  const kept = seed?.allocation;
  // a close without an opening-lots file recorded no allocation to keep
  if (seed === null || kept === undefined || kept.file === null) return unrecorded(current);
  const statement = { file: kept.file, rows: copy(kept.lots) };
  const differ = current === null ? 0 : differing(kept.lots, current.rows);
  const warning = differ === 0 || current === null ? null : changedMessage(current.file, seed.period, current.rows.length, kept.lots.length, differ);
  const check = current === null ? null : { warning };
  return { statement, check, recorded: statement.rows, record: { file: kept.file, lots: kept.lots.map((l) => ({ ...l })), check } };
}

/**
 * No close to compare with: the file's allocation is the one this run uses and a close would record,
 * so the check runs and finds nothing — listed alike before and after an earlier month closes, so a
 * folder's check list does not depend on which months the snapshot closed (the rerun property).
 */
function unrecorded(current: { file: string; rows: OpeningLot[] } | null): AllocationUse {
  const check = current === null ? null : { warning: null };
  return { statement: current, check, recorded: null, record: { file: current?.file ?? null, lots: current?.rows.map((l) => ({ ...l })) ?? [], check } };
}

/** How many rows are in one list and not the other (as multisets: the order is the statement's, not the allocation's). */
function differing(recorded: readonly RecordedAllocationLot[], file: readonly OpeningLot[]): number {
  const key = (l: RecordedAllocationLot): string => [l.walletId.toLowerCase(), l.currency, l.acquiredAt, l.units, l.cost ?? 'unknown', l.ref ?? ''].join('|');
  const counts = new Map<string, number>();
  for (const l of recorded) counts.set(key(l), (counts.get(key(l)) ?? 0) + 1);
  for (const l of file) counts.set(key(l), (counts.get(key(l)) ?? 0) - 1);
  return [...counts.values()].reduce((a, n) => a + Math.abs(n), 0);
}

function changedMessage(file: string, period: string, fileRows: number, recordedRows: number, differ: number): string {
  return (
    `the opening-lots file ${file} no longer gives the 1 January 2025 allocation recorded with the closed period ${period}: ` +
    `its ${fileRows} row(s) acquired on or before 31 December 2024 and the recorded ${recordedRows} differ by ${differ} row(s). ` +
    'The allocation is irrevocable (Rev. Proc. 2024-28, section 4.02(6)): rev-proc-2024-28-allocation.csv and the lots keep the recorded one; restore those rows of the file'
  );
}
