/**
 * Which 1 January 2025 allocation a run uses (allocation-record.ts): the file's while nothing is
 * recorded; once a close recorded one, that one — on the period's re-run as the close showed it,
 * and carried into a later period, where a file that no longer gives it is one warning citing
 * section 4.02(6). Rows the file adds after 2024 are not part of the allocation.
 */
import { describe, expect, it } from 'vitest';
import type { OpeningLot } from '../../../../src/lots/model.js';
import { carriedAllocation, recordedAllocation } from '../../../../src/lots/tax/allocation-record.js';
import type { LotPeriodRecord, RecordedAllocation } from '../../../../src/model/lots-record.js';

const day = (instant: string): string => instant.slice(0, 10);
const lot = (acquiredAt: string, cost: bigint | null, ref: string | null = null): OpeningLot => ({ walletId: 'a', currency: 'btc', acquiredAt, units: 100n, cost, ref });
const rows = [lot('2024-03-15T12:00:00Z', 500n, 'deposited:d1'), lot('2023-06-01T12:00:00Z', 300n)];
const later = lot('2026-09-04T00:00:00Z', 900n, 'deposited:d2');
const file = (r: readonly OpeningLot[], path = '/books/opening-lots.csv'): { file: string; rows: readonly OpeningLot[] } => ({ file: path, rows: r });
const closed = (allocation: RecordedAllocation | undefined): LotPeriodRecord => ({ period: '2026-10', windowFrom: 'f', windowTo: 't', figures: [], lots: [], reliefs: [], ...(allocation === undefined ? {} : { allocation }) });

describe('the allocation a run uses', () => {
  it("is the file's with nothing recorded, checked against itself (nothing differs: the check is listed before a close as after it), and that is what a close records", () => {
    const use = carriedAllocation(null, file([...rows, later]), day);
    expect(use.statement).toEqual({ file: 'opening-lots.csv', rows: [rows[1], rows[0]] });
    expect(use.check).toEqual({ warning: null });
    expect(use.recorded).toBeNull();
    expect(use.record).toEqual({ file: 'opening-lots.csv', lots: [rows[1], rows[0]], check: { warning: null } });
    expect(carriedAllocation(null, null, day)).toMatchObject({ statement: null, check: null, record: { file: null, lots: [] } });
  });

  it('is carried from the close a run starts from; the same rows (in any order, and rows after 2024 added) pass', () => {
    const recorded = carriedAllocation(null, file(rows), day).record;
    const use = carriedAllocation(closed(recorded), file([later, rows[0] as OpeningLot, rows[1] as OpeningLot], '/elsewhere/renamed.csv'), day);
    expect(use.statement).toEqual({ file: 'opening-lots.csv', rows: recorded.lots });
    expect(use.check).toEqual({ warning: null });
    expect(use.record).toEqual({ ...recorded, check: { warning: null } });
  });

  it('warns once when the file no longer gives it, and keeps the recorded rows', () => {
    const recorded = carriedAllocation(null, file(rows), day).record;
    const doubled = rows.map((r) => ({ ...r, cost: (r.cost ?? 0n) * 2n }));
    const use = carriedAllocation(closed(recorded), file(doubled), day);
    expect(use.recorded).toEqual(recorded.lots);
    expect(use.check?.warning).toContain('opening-lots.csv');
    expect(use.check?.warning).toContain('closed period 2026-10');
    expect(use.check?.warning).toContain('differ by 4 row(s)');
    expect(use.check?.warning).toContain('section 4.02(6)');
  });

  it("falls back to the file after a close recorded before migration 015, or one that had no file", () => {
    expect(carriedAllocation(closed(undefined), file(rows), day)).toMatchObject({ check: { warning: null }, recorded: null, statement: { file: 'opening-lots.csv' } });
    expect(carriedAllocation(closed({ file: null, lots: [], check: null }), file(rows), day)).toMatchObject({ check: { warning: null }, recorded: null });
  });

  it("on a recorded period's re-run is the close's, with the close's check, whatever the file says", () => {
    const own: RecordedAllocation = { file: 'opening-lots.csv', lots: rows.map((r) => ({ ...r })), check: { warning: 'as the close said' } };
    expect(recordedAllocation(closed(own), file([]), day)).toMatchObject({ statement: { file: 'opening-lots.csv', rows: own.lots }, check: { warning: 'as the close said' } });
    expect(recordedAllocation(closed({ file: null, lots: [], check: null }), file(rows), day)).toMatchObject({ statement: null, check: null });
    expect(recordedAllocation(closed(undefined), file(rows), day)).toMatchObject({ statement: { rows: [rows[1], rows[0]] }, check: { warning: null } });
  });
});
