/**
 * Rounding an entry's legs to the books' minor unit so they sum exactly to the rounded wallet leg.
 *
 * One rate values the whole entry, so the exact component values (principal, network fee,
 * processing fee) sum exactly to the exact wallet value. The wallet leg is rounded with the
 * configured mode; each component is floored, and the cents still missing go one each to the
 * components with the largest remainders (money/largest-remainder.ts; ties: the order given,
 * principal first). No component
 * moves by a whole minor unit or more from its exact value, and no rounding line is needed.
 */
import { splitByLargestRemainder } from '../money/largest-remainder.js';
import { divRound, type Rounding } from '../money/rounding.js';

export interface Allocation {
  wallet: bigint;
  parts: bigint[];
}

/** Values `amounts` (≥ 0) at num/den and allocates; `total` is their sum. */
export function allocateLargestRemainder(amounts: readonly bigint[], num: bigint, den: bigint, mode: Rounding): Allocation {
  const total = amounts.reduce((a, b) => a + b, 0n);
  const wallet = divRound(total * num, den, mode);
  // never more than the remainders allow: the wallet leg is the exact sum rounded once
  const parts = splitByLargestRemainder(amounts.map((a) => a * num), den, wallet);
  return { wallet, parts };
}

/** Each component rounded on its own; the caller books `wallet − Σ parts` to the rounding account. */
export function roundEach(amounts: readonly bigint[], num: bigint, den: bigint, mode: Rounding): Allocation {
  const total = amounts.reduce((a, b) => a + b, 0n);
  return { wallet: divRound(total * num, den, mode), parts: amounts.map((a) => divRound(a * num, den, mode)) };
}
