/**
 * Relieving units from one lot, and sharing one leg's proceeds among the lots it used.
 *
 * Cost: a lot keeps its remaining units and remaining cost (integers). Relieving all that is left
 * relieves all the cost left, so a fully relieved lot leaves exactly 0.00; relieving part of it
 * relieves cost × units / remaining rounded half-even, which is never more than the cost left (the
 * exact share is below it). Σ relieved + what remains = the lot's cost, always, exactly.
 *
 * Proceeds: a leg's proceeds are the journal's books amount of that leg (the same rate, the same
 * rounding as the entry); split over its relief lines in proportion to units, floored, with the
 * minor units left over going to the largest remainders (money/largest-remainder.ts, as the
 * journal's legs), so the lines sum
 * exactly to the journal's leg.
 */
import { splitByLargestRemainder } from '../money/largest-remainder.js';
import { divRound } from '../money/rounding.js';
import type { Lot } from './model.js';

/** The cost relieved when `units` (0 < units ≤ lot.units) leave `lot`; the lot is updated in place. */
export function relieve(lot: Lot, units: bigint): bigint | null {
  if (units <= 0n || units > lot.units) throw new RangeError(`cannot relieve ${units} of ${lot.units} units from ${lot.lotId}`);
  let cost: bigint | null = null;
  if (lot.cost !== null) {
    cost = units === lot.units ? lot.cost : divRound(lot.cost * units, lot.units, 'half_even');
    lot.cost -= cost;
  }
  lot.units -= units;
  return cost;
}

/** `total` shared over `weights` (Σ weights > 0) by floor + largest remainder; ties to the earlier share. */
export function shareByUnits(total: bigint, weights: readonly bigint[]): bigint[] {
  const sum = weights.reduce((a, b) => a + b, 0n);
  if (sum === 0n) return weights.map(() => 0n);
  const negative = total < 0n;
  const magnitude = negative ? -total : total;
  const shares = splitByLargestRemainder(weights.map((w) => magnitude * w), sum, magnitude);
  return negative ? shares.map((f) => -f) : shares;
}

/** Average cost: the wallet's known cost spread over its known-basis lots by units (sum unchanged). */
export function averageInPlace(lots: readonly Lot[]): void {
  const known = lots.filter((l) => l.cost !== null && l.units > 0n);
  const total = known.reduce((a, l) => a + (l.cost as bigint), 0n);
  const shares = shareByUnits(total, known.map((l) => l.units));
  known.forEach((l, i) => {
    l.cost = shares[i] as bigint;
  });
}
