import { describe, expect, it } from 'vitest';
import { formatBase, groupThousands, msatsToBtcSatPrecision, parseDecimalToBase, rescale, toDisplay } from '../../../src/money/format.js';
import { money } from '../../../src/money/money.js';
import { msatsToSats, satsToMsats } from '../../../src/money/units.js';

const ASSET = 'asset:037c01d8548a17561f9cb9e734f7c761437439815d43f8dd0e9a265c8024b2c725';

describe('display conversions', () => {
  it('shows msats as BTC with all 11 digits, exactly', () => {
    expect(toDisplay(money('btc', 150_000_000n), { rounding: 'half_even' })).toBe('0.00150000000');
    expect(toDisplay(money('btc', 2_100_000_000_000_000_000n), { rounding: 'half_even' })).toBe('21000000.00000000000');
    expect(toDisplay(money('btc', -1n), { rounding: 'half_even' })).toBe('-0.00000000001');
  });

  it('rounds to sat precision only with a named rounding', () => {
    expect(msatsToBtcSatPrecision(1_500n, 'half_even')).toBe('0.00000002');
    expect(msatsToBtcSatPrecision(2_500n, 'half_even')).toBe('0.00000002');
    expect(msatsToBtcSatPrecision(2_500n, 'half_up')).toBe('0.00000003');
    expect(msatsToBtcSatPrecision(1_999n, 'floor')).toBe('0.00000001');
    expect(toDisplay(money('btc', 1_999n), { decimals: 8, rounding: 'ceil' })).toBe('0.00000002');
  });

  it('msats ↔ sats: whole sats ×1000 exactly, msats → sats rounds as named', () => {
    expect(satsToMsats(150_000n)).toBe(150_000_000n);
    expect(msatsToSats(250_500n, 'half_even')).toBe(250n);
    expect(msatsToSats(251_500n, 'half_even')).toBe(252n);
    expect(msatsToSats(-1n, 'floor')).toBe(-1n);
  });

  it('shows cents as USD and asset base units with decimal_display', () => {
    expect(toDisplay(money('usd', 650n), { rounding: 'half_even' })).toBe('6.50');
    expect(toDisplay(money('usd', -5n), { rounding: 'half_even' })).toBe('-0.05');
    expect(toDisplay(money(ASSET, 1_000_000n), { rounding: 'half_even', assetDecimals: new Map([[ASSET, 6]]) })).toBe('1.000000');
    expect(toDisplay(money(ASSET, 1_000_000n), { rounding: 'half_even' })).toBeNull();
    expect(toDisplay(money(ASSET, 7n), { rounding: 'half_even', assetDecimals: new Map([[ASSET, 0]]) })).toBe('7');
  });

  it('never writes exponent notation', () => {
    expect(formatBase(1n, 20)).toBe('0.00000000000000000001');
    expect(formatBase(10n ** 30n, 0)).toBe('1000000000000000000000000000000');
    expect(rescale(5n, 2, 4, 'half_even')).toBe('0.0500');
  });

  it('parses plain decimals back to base units, strictly', () => {
    expect(parseDecimalToBase('0.00150000000', 11)).toBe(150_000_000n);
    expect(parseDecimalToBase('-6.5', 2)).toBe(-650n);
    expect(parseDecimalToBase('6.505', 2, 'half_even')).toBe(650n);
    expect(() => parseDecimalToBase('6.505', 2)).toThrow(/more than 2/);
    for (const bad of ['1e3', '1,000', '', ' 5', '+5', '.5', '5.', '05.1']) expect(() => parseDecimalToBase(bad, 2)).toThrow(RangeError);
  });
});

describe('groupThousands', () => {
  it('groups the whole part only, keeps the sign and every decimal', () => {
    expect(['0.00000000001', '999', '1000', '-1234567.891', '124312.91030152433', '1000000'].map(groupThousands)).toEqual(['0.00000000001', '999', '1,000', '-1,234,567.891', '124,312.91030152433', '1,000,000']);
  });

  it('leaves anything that is not a plain decimal alone', () => {
    expect(['1e5', 'abc', '', '1,000'].map(groupThousands)).toEqual(['1e5', 'abc', '', '1,000']);
  });
});
