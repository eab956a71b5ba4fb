/**
 * An exact total split into integer parts in proportion: each part is its exact share floored, and
 * the units still missing go one each to the parts with the largest remainders (ties: the earlier
 * part). No part moves by a whole unit or more from its exact share, and the parts sum exactly to
 * the total — the rounding a journal's legs and a leg's relief lines must both satisfy
 * (docs/style.md#6-money: every division names its rounding).
 */

/**
 * Parts of `total` where part i's exact share is `numerators[i] / den` (numerators ≥ 0, den > 0).
 * `total` may be any integer from Σ floors to Σ floors + the number of non-zero remainders (the
 * exact sum rounded either way); anything else cannot be reached without moving a part by a whole
 * unit, and throws.
 */
export function splitByLargestRemainder(numerators: readonly bigint[], den: bigint, total: bigint): bigint[] {
  if (den <= 0n) throw new RangeError(`largest-remainder split over a denominator of ${den}`);
  const parts = numerators.map((n) => n / den);
  const remainders = numerators.map((n) => n % den);
  let left = total - parts.reduce((a, b) => a + b, 0n);
  const order = numerators
    .map((_, i) => i)
    .filter((i) => (remainders[i] as bigint) > 0n)
    .sort((a, b) => {
      const ra = remainders[a] as bigint;
      const rb = remainders[b] as bigint;
      return ra > rb ? -1 : ra < rb ? 1 : a - b;
    });
  for (const i of order) {
    if (left <= 0n) break;
    parts[i] = (parts[i] as bigint) + 1n;
    left -= 1n;
  }
  if (left !== 0n) throw new Error(`largest-remainder split left ${left} unit(s): the total is not the exact sum rounded`);
  return parts;
}
