/**
 * The simulator's fee and conversion arithmetic (bigint base units, explicit rounding).
 * Documented in docs/simulator.md "Amounts and fees" so reconciliation can apply the same rules.
 */

/** round(a / b), halves away from zero, for a ≥ 0, b > 0. */
export function divRoundHalfUp(a: bigint, b: bigint): bigint {
  return (2n * a + b) / (2n * b);
}

export function divCeil(a: bigint, b: bigint): bigint {
  return (a + b - 1n) / b;
}

/**
 * Processing fee = round(principal × bps / 10,000), half up, in the principal's base units.
 * On-chain BTC amounts are whole sats, so there the fee is rounded half up to whole sats (1,000 msats).
 */
export function processingFeeOf(principal: bigint, bps: number, wholeSats: boolean): bigint {
  if (bps <= 0) return 0n;
  if (wholeSats) return divRoundHalfUp(principal * BigInt(bps), 10_000_000n) * 1_000n;
  return divRoundHalfUp(principal * BigInt(bps), 10_000n);
}

/** A quote rate `<coefficient>e<scale>`: coefficient / 10^scale base units of the quote currency per 1 BTC. */
export interface Rate {
  coefficient: bigint;
  scale: number;
}

export function formatRate(rate: Rate): string {
  return `${rate.coefficient}e${rate.scale}`;
}

const MSATS_PER_BTC = 100_000_000_000n;

/** cents → msats at `rate` (cents per BTC), rounded down. */
export function centsToMsats(cents: bigint, rate: Rate): bigint {
  return (cents * MSATS_PER_BTC * 10n ** BigInt(rate.scale)) / rate.coefficient;
}

/** msats → cents at `rate`, rounded down (what a wallet is credited for BTC it received). */
export function msatsToCentsFloor(msats: bigint, rate: Rate): bigint {
  return (msats * rate.coefficient) / (MSATS_PER_BTC * 10n ** BigInt(rate.scale));
}

/** msats → cents at `rate`, rounded up (a fee in cents never rounds to less than it cost). */
export function msatsToCentsCeil(msats: bigint, rate: Rate): bigint {
  return divCeil(msats * rate.coefficient, MSATS_PER_BTC * 10n ** BigInt(rate.scale));
}
