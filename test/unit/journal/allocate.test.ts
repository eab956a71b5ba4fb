import { describe, expect, it } from 'vitest';
import { allocateLargestRemainder, roundEach } from '../../../src/journal/allocate.js';

describe('largest-remainder allocation', () => {
  it("gives the cent the wallet leg's rounding adds to the largest remainder (principal first on ties)", () => {
    // in mills (1/10 cent): 10.004 + 0.004 + 0.004 = 10.012 USD: wallet 10.01, floors 10.00/0.00/0.00, one cent to the principal
    const { wallet, parts } = allocateLargestRemainder([10_004n, 4n, 4n], 1n, 10n, 'half_even');
    expect(wallet).toBe(1001n);
    expect(parts).toEqual([1001n, 0n, 0n]);
  });

  it('goes to the largest remainder, not the largest amount', () => {
    // 1.2 + 0.9 + 0.9 = 3.0 → floors 1, 0, 0 → two cents to the two 0.9s
    expect(allocateLargestRemainder([12n, 9n, 9n], 1n, 10n, 'half_up')).toEqual({ wallet: 3n, parts: [1n, 1n, 1n] });
  });

  it('rounds the wallet leg with the mode named', () => {
    expect(allocateLargestRemainder([25n], 1n, 10n, 'half_even').wallet).toBe(2n);
    expect(allocateLargestRemainder([25n], 1n, 10n, 'half_up').wallet).toBe(3n);
    expect(allocateLargestRemainder([25n], 1n, 10n, 'floor').wallet).toBe(2n);
    expect(allocateLargestRemainder([21n], 1n, 10n, 'ceil').wallet).toBe(3n);
  });

  it('rounds each leg on its own in rounding-line mode, leaving the difference to the caller', () => {
    // 0.6 + 0.6 = 1.2: wallet 1, legs 1 + 1 = 2 → a rounding line of 1 on the wallet side
    expect(roundEach([6n, 6n], 1n, 10n, 'half_up')).toEqual({ wallet: 1n, parts: [1n, 1n] });
  });
});
