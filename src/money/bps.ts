/**
 * Basis-point math for processing fees (spec: `basis_points`, 100 = 1 %, 250 = 2.5 %).
 * Exact BigInt; the service states the fee amount "including required base-unit rounding" but not
 * the rounding mode, so checks accept either integer neighbour of the exact value.
 */
import { absBig, divRound, pow10, type Rounding } from './rounding.js';
import { formatBase } from './format.js';

export const BPS_DENOMINATOR = 10_000n;

/** principal × bps / 10,000, rounded as named. */
export function feeAtBps(principal: bigint, basisPoints: number, rounding: Rounding): bigint {
  return divRound(principal * BigInt(basisPoints), BPS_DENOMINATOR, rounding);
}

/**
 * True when `fee` equals principal × bps / 10,000 rounded to a whole base unit in either
 * direction (floor or ceil), with `slack` more base units allowed (e.g. 1 for a fee that went
 * through a quote conversion). Exact: compares fee × 10,000 with principal × bps.
 */
export function feeWithinRounding(fee: bigint, principal: bigint, basisPoints: number, slack = 0n): boolean {
  const exactTimesDenominator = principal * BigInt(basisPoints);
  const distance = absBig(fee * BPS_DENOMINATOR - exactTimesDenominator);
  // |fee − exact| < 1 + slack  ⇔  |fee·10⁴ − principal·bps| < (1 + slack)·10⁴
  return distance < (1n + slack) * BPS_DENOMINATOR;
}

/** The fee's effective rate in basis points as a decimal string with `decimals` digits, or null if principal is 0. */
export function effectiveBps(fee: bigint, principal: bigint, decimals: number, rounding: Rounding): string | null {
  if (principal === 0n) return null;
  return formatBase(divRound(fee * BPS_DENOMINATOR * pow10(decimals), principal, rounding), decimals);
}
