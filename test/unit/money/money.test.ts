import { describe, expect, it } from 'vitest';
import { add, compare, CurrencyMismatchError, equals, money, negate, subtract, sum, zero } from '../../../src/money/money.js';

describe('Money', () => {
  it('adds, subtracts, negates and compares exactly beyond 2^64', () => {
    const big = money('btc', 2n ** 64n + 7n);
    const other = money('btc', 2_100_000_000_000_000_000n);
    expect(add(big, other).base).toBe(2n ** 64n + 7n + 2_100_000_000_000_000_000n);
    expect(subtract(other, big).base).toBe(2_100_000_000_000_000_000n - 2n ** 64n - 7n);
    expect(negate(big).base).toBe(-(2n ** 64n + 7n));
    expect(compare(big, other)).toBe(1);
    expect(compare(other, big)).toBe(-1);
    expect(equals(big, money('btc', 2n ** 64n + 7n))).toBe(true);
  });

  it('refuses to mix currencies in every operation', () => {
    const sats = money('btc', 1n);
    const cents = money('usd', 1n);
    expect(() => add(sats, cents)).toThrow(CurrencyMismatchError);
    expect(() => subtract(sats, cents)).toThrow(/btc and usd/);
    expect(() => compare(sats, cents)).toThrow(CurrencyMismatchError);
    expect(() => sum('btc', [sats, cents])).toThrow(CurrencyMismatchError);
  });

  it('sums an empty list to zero of the named currency', () => {
    expect(sum('usd', [])).toEqual(zero('usd'));
    expect(sum('usd', [money('usd', 5n), money('usd', -2n)])).toEqual(money('usd', 3n));
  });

  it('refuses a non-bigint base or an empty currency', () => {
    expect(() => money('btc', 5 as unknown as bigint)).toThrow(TypeError);
    expect(() => money('', 5n)).toThrow(TypeError);
  });
});
