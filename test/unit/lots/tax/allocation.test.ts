/**
 * The 1 January 2025 allocation: the opening-lots file's rows acquired on or before 31 December
 * 2024 on the books' calendar — a lot bought at 22:00 in New York on 31 December 2024 is in it, on a
 * UTC calendar it would not be — per wallet, opening balances and deposits' basis alike.
 */
import { describe, expect, it } from 'vitest';
import { localDate } from '../../../../src/journal/build-movement.js';
import type { OpeningLot } from '../../../../src/lots/model.js';
import { allocationRows } from '../../../../src/lots/tax/allocation.js';
import { ZonedClock } from '../../../../src/model/zoned-time.js';

const lot = (walletId: string, acquiredAt: string, ref: string | null = null): OpeningLot => ({ walletId, currency: 'btc', acquiredAt, units: 100_000_000_000n, cost: 65_000_00n, ref });

describe('the 1 January 2025 allocation', () => {
  const openings = [
    lot('b', '2024-03-15T12:00:00.000000Z', 'deposited:d1'),
    lot('a', '2025-01-01T03:00:00.000000Z'), // 31 December 2024, 22:00 in New York
    lot('a', '2023-06-01T12:00:00.000000Z'),
    lot('a', '2025-01-01T05:00:00.000000Z'), // 1 January 2025 in New York: after the snapshot
    lot('a', '2026-09-04T00:00:00.000000Z', 'deposited:d2'),
  ];

  it('lists the lots held as of 1 January 2025 on the books’ calendar, per wallet, oldest first', () => {
    const ny = new ZonedClock('America/New_York');
    expect(allocationRows(openings, (i) => localDate(ny, i)).map((r) => `${r.lot.walletId} ${r.acquiredDay} ${r.lot.ref ?? 'opening'}`)).toEqual(['a 2023-06-01 opening', 'a 2024-12-31 opening', 'b 2024-03-15 deposited:d1']);
    const utc = new ZonedClock('UTC');
    expect(allocationRows(openings, (i) => localDate(utc, i)).map((r) => r.acquiredDay)).toEqual(['2023-06-01', '2024-03-15']);
  });
});
