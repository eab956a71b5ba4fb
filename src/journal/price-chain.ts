/**
 * Several price tables tried in order for one currency: the user's file first (the source of truth
 * when it has a fresh price), then the cache's sources in the policy's order. Each table keeps its
 * own staleness; the point returned names the table it came from.
 */
import type { UtcInstant } from '../model/rows.js';
import type { PriceLookup, PricePoint } from './price-file.js';

export class PriceChain implements PriceLookup {
  constructor(private readonly tables: readonly PriceLookup[]) {}

  at(at: UtcInstant): PricePoint | null {
    for (const table of this.tables) {
      const point = table.at(at);
      if (point !== null) return point;
    }
    return null;
  }

  /** Covered where any table is: each round moves to the furthest point a table still covers from here. */
  firstUncoveredMs(fromMs: number, toMs: number): number | null {
    let covered = fromMs;
    while (covered < toMs) {
      let furthest = covered;
      for (const table of this.tables) {
        const gap = table.firstUncoveredMs(covered, toMs);
        if (gap === null) return null;
        furthest = Math.max(furthest, gap);
      }
      if (furthest === covered) return covered;
      covered = furthest;
    }
    return null;
  }
}
