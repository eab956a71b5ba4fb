/**
 * Column (a): "0.01234567 BTC", at most 8 decimals; a lot finer than a satoshi is rounded half-even
 * to it (the exact units are in their own column), one smaller than a satoshi says so; an asset of
 * 8 decimals or fewer is exact.
 */
import { describe, expect, it } from 'vitest';
import { unitsDescription, unitsExact } from '../../../../src/lots/tax/units-description.js';

const BTC = { symbol: 'BTC', scale: 11, baseUnitName: 'msat' };
const USDT = { symbol: 'USDT', scale: 6, baseUnitName: 'base units of USDT' };
const WIDE = { symbol: 'WIDE', scale: 18, baseUnitName: 'base units of WIDE' };

describe('the description of the units disposed of', () => {
  it('shows BTC to the satoshi, exact when the lot is whole satoshis', () => {
    expect(unitsDescription(1_234_567_000n, BTC)).toBe('0.01234567 BTC');
    expect(unitsExact(1_234_567_000n, BTC)).toBe(true);
    expect(unitsDescription(854_000_000_000n, BTC)).toBe('8.54000000 BTC');
  });

  it('rounds a lot finer than a satoshi half-even to it, and says it is not exact', () => {
    expect(unitsDescription(1_312_706_104n, BTC)).toBe('0.01312706 BTC');
    expect(unitsDescription(1_312_706_500n, BTC)).toBe('0.01312706 BTC'); // half to even
    expect(unitsDescription(1_312_707_500n, BTC)).toBe('0.01312708 BTC');
    expect(unitsExact(1_312_706_104n, BTC)).toBe(false);
  });

  it('says when a lot is smaller than one satoshi, with its millisatoshis', () => {
    expect(unitsDescription(737n, BTC)).toBe('less than 0.00000001 BTC (737 msat)');
    expect(unitsDescription(999n, BTC)).toBe('less than 0.00000001 BTC (999 msat)');
    expect(unitsDescription(1_000n, BTC)).toBe('0.00000001 BTC');
    expect(unitsDescription(1_499n, BTC)).toBe('0.00000001 BTC');
  });

  it('keeps an asset of up to 8 decimals exact and limits a wider one to 8', () => {
    expect(unitsDescription(10_135_078n, USDT)).toBe('10.135078 USDT');
    expect(unitsDescription(1_234_567_890_123_456_789n, WIDE)).toBe('1.23456789 WIDE');
    expect(unitsDescription(5n, WIDE)).toBe('less than 0.00000001 WIDE (5 base units of WIDE)');
    for (const text of ['0.01234567 BTC', '10.135078 USDT', '1.23456789 WIDE']) expect(/\.\d{1,8} /.test(text)).toBe(true);
  });
});
