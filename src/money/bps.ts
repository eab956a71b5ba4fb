/**
 * Basis-point math for processing fees (docs/service-facts.md#amounts-and-fees: `basis_points`, 100 = 1 %, 250 = 2.5 %).
 * Exact BigInt; the service states the fee amount "including required base-unit rounding" but not
 * the rounding mode, so checks accept either integer neighbour of the exact value — or of the
 * rail's settlement unit where the rail requires one (on-chain amounts are whole sats).
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

/**
 * True when `fee` is principal × bps / 10,000 rounded, in either direction, to a whole multiple of
 * `unit` base units — the rail's settlement unit (1,000 msats for amounts that settle on chain,
 * which are whole sats). Exact: |fee·10⁴ − principal·bps| < unit·10⁴ and unit divides fee.
 */
export function feeWithinUnitRounding(fee: bigint, principal: bigint, basisPoints: number, unit: bigint): boolean {
  if (unit <= 0n || fee % unit !== 0n) return false;
  return absBig(fee * BPS_DENOMINATOR - principal * BigInt(basisPoints)) < unit * BPS_DENOMINATOR;
}

/** The fee's effective rate in basis points as a decimal string with `decimals` digits, or null if principal is 0. */
export function effectiveBps(fee: bigint, principal: bigint, decimals: number, rounding: Rounding): string | null {
  if (principal === 0n) return null;
  return formatBase(divRound(fee * BPS_DENOMINATOR * pow10(decimals), principal, rounding), decimals);
}
