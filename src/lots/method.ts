/**
 * The cost-basis method of a wallet at an instant, and the order in which each method relieves
 * lots. A wallet's methods are a list of `{method, from}`: the latest `from` at or before the
 * disposal applies (a change applies from its date on; nothing before it is recomputed). With no
 * entry in force, `fifo`, the US default (Treas. Reg. 1.1012-1(j)).
 */
import type { Lot } from './model.js';

export const LOT_METHODS = ['fifo', 'lifo', 'hifo', 'specific', 'average'] as const;
export type LotMethod = (typeof LOT_METHODS)[number];
/** the orders a `specific` wallet's standing order may name */
export type StandingOrder = 'fifo' | 'lifo' | 'hifo';

export interface MethodPeriod {
  method: LotMethod;
  /** RFC 3339 instant or YYYY-MM-DD (UTC midnight) */
  from: string;
}

export function methodAt(periods: readonly MethodPeriod[] | undefined, at: string): LotMethod {
  return methodPeriodAt(periods, at)?.method ?? 'fifo';
}

/** The configured method period in force at an instant; null when none has begun (fifo, the default). */
export function methodPeriodAt(periods: readonly MethodPeriod[] | undefined, at: string): MethodPeriod | null {
  let chosen: MethodPeriod | null = null;
  for (const p of periods ?? []) {
    if (startOf(p.from) <= at && (chosen === null || startOf(p.from) >= startOf(chosen.from))) chosen = p;
  }
  return chosen;
}

/** A date alone is its UTC midnight; instants compare as the snapshot's fixed-width UTC text. */
export function startOf(from: string): string {
  return from.length === 10 ? `${from}T00:00:00.000000Z` : from;
}

/** Lots in the order `order` relieves them; unknown-basis lots always last (their cost is no order key). */
export function ordered(lots: readonly Lot[], order: StandingOrder): Lot[] {
  const byDate = (a: Lot, b: Lot): number => (a.acquiredAt < b.acquiredAt ? -1 : a.acquiredAt > b.acquiredAt ? 1 : a.lotId < b.lotId ? -1 : a.lotId > b.lotId ? 1 : 0);
  return [...lots].filter((l) => l.units > 0n).sort((a, b) => {
    if ((a.cost === null) !== (b.cost === null)) return a.cost === null ? 1 : -1;
    if (order === 'lifo') return -byDate(a, b);
    if (order === 'hifo' && a.cost !== null && b.cost !== null) {
      // unit cost a.cost/a.units vs b.cost/b.units, compared exactly by cross-multiplication
      const left = a.cost * b.units;
      const right = b.cost * a.units;
      if (left !== right) return left > right ? -1 : 1;
    }
    return byDate(a, b);
  });
}
