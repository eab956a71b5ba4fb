/**
 * The order each method relieves lots in, ties included (src/lots/method.ts `ordered`), as
 * docs/lots.md states it: fifo earliest first, the lower lot id first at one instant; lifo its exact
 * reverse (the higher lot id first at one instant); hifo by remaining unit cost, then fifo; unknown
 * basis last; lots with no units left skipped.
 */
import { describe, expect, it } from 'vitest';
import { ordered } from '../../../src/lots/method.js';
import type { Lot } from '../../../src/lots/model.js';

const lot = (lotId: string, acquiredAt: string, units: bigint, cost: bigint | null): Lot => ({ lotId, walletId: 'w', currency: 'btc', acquiredAt, origin: 'receive', units, cost });
const T1 = '2026-10-01T00:00:00.000000Z';
const T2 = '2026-10-02T00:00:00.000000Z';
const ids = (lots: Lot[]): string[] => lots.map((l) => l.lotId);

describe('the order lots are relieved in', () => {
  const lots = [lot('LOT-B', T1, 10n, 100n), lot('LOT-A', T1, 10n, 300n), lot('LOT-C', T2, 10n, 200n), lot('LOT-U', T1, 10n, null), lot('LOT-E', T1, 0n, 999n)];

  it('fifo: earliest first, the lower lot id first at one instant, unknown basis last, empty lots skipped', () => {
    expect(ids(ordered(lots, 'fifo'))).toEqual(['LOT-A', 'LOT-B', 'LOT-C', 'LOT-U']);
  });

  it('lifo: latest first, the higher lot id first at one instant', () => {
    expect(ids(ordered(lots, 'lifo'))).toEqual(['LOT-C', 'LOT-B', 'LOT-A', 'LOT-U']);
  });

  it('hifo: the highest remaining unit cost first, equal unit costs in fifo order', () => {
    expect(ids(ordered(lots, 'hifo'))).toEqual(['LOT-A', 'LOT-C', 'LOT-B', 'LOT-U']);
    // ranked by what is left: LOT-Y 100 for 3 units (33.3…) first; LOT-Z 150 for 5 equals LOT-A's 30 a unit, so fifo order
    const partly = [lot('LOT-Z', T2, 5n, 150n), lot('LOT-A', T1, 10n, 300n), lot('LOT-Y', T2, 3n, 100n)];
    expect(ids(ordered(partly, 'hifo'))).toEqual(['LOT-Y', 'LOT-A', 'LOT-Z']);
  });
});
