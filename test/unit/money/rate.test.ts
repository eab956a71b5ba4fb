import { describe, expect, it } from 'vitest';
import { effectiveBps, feeAtBps, feeWithinRounding, feeWithinUnitRounding } from '../../../src/money/bps.js';
import { formatRate, msatsToQuoted, parseRate, quotedToMsats } from '../../../src/money/rate.js';

describe('quote rates', () => {
  it('reads <coefficient>e<scale> as coefficient / 10^scale per BTC, not scientific notation', () => {
    // OpenAPI rate-string: `12345e2` is 123.45 base units per BTC.
    const rate = parseRate('12345e2');
    expect(rate).toEqual({ coefficient: 12345n, scale: 2 });
    // 1 BTC = 10^11 msats → 123.45 base units, rounded
    expect(msatsToQuoted(100_000_000_000n, rate!, 'half_even')).toBe(123n);
    expect(msatsToQuoted(100_000_000_000n, rate!, 'ceil')).toBe(124n);
    expect(formatRate(rate!)).toBe('12345e2');
  });

  it('converts USD cents and msats both ways at $65,000/BTC', () => {
    const rate = parseRate('6500000e0')!;
    expect(msatsToQuoted(10_000_000n, rate, 'half_even')).toBe(650n);
    expect(quotedToMsats(650n, rate, 'half_even')).toBe(10_000_000n);
    expect(quotedToMsats(7n, rate, 'half_even')).toBe(107_692n);
    expect(quotedToMsats(7n, rate, 'ceil')).toBe(107_693n);
  });

  it.each(['1.5e2', '1E2', '1e-2', '+1e2', ' 1e2', '1e2 ', '0e0', '01e2', '1e02', '12345', 'e2', '', '1e99999'])('rejects %j', (text) => {
    expect(parseRate(text)).toBeNull();
  });
  it('rejects non-strings', () => {
    expect(parseRate(12345)).toBeNull();
    expect(parseRate(null)).toBeNull();
  });
});

describe('basis points', () => {
  it('computes principal × bps / 10,000 with a named rounding', () => {
    expect(feeAtBps(650n, 100, 'half_even')).toBe(6n);
    expect(feeAtBps(650n, 100, 'half_up')).toBe(7n);
    expect(feeAtBps(150_000_000n, 250, 'floor')).toBe(3_750_000n);
  });
  it('accepts either integer neighbour of the exact fee, plus slack', () => {
    expect(feeWithinRounding(6n, 650n, 100)).toBe(true);
    expect(feeWithinRounding(7n, 650n, 100)).toBe(true);
    expect(feeWithinRounding(8n, 650n, 100)).toBe(false);
    expect(feeWithinRounding(8n, 650n, 100, 1n)).toBe(true);
    expect(feeWithinRounding(3_750_000n, 150_000_000n, 250)).toBe(true);
    expect(feeWithinRounding(3_750_001n, 150_000_000n, 250)).toBe(false);
  });
  it('accepts rounding to a settlement unit (whole sats) in either direction, and only whole units', () => {
    // 199,153 sats at 100 bps = 1,991.53 sats
    expect(feeWithinUnitRounding(1_991_000n, 199_153_000n, 100, 1_000n)).toBe(true);
    expect(feeWithinUnitRounding(1_992_000n, 199_153_000n, 100, 1_000n)).toBe(true);
    expect(feeWithinUnitRounding(1_993_000n, 199_153_000n, 100, 1_000n)).toBe(false);
    expect(feeWithinUnitRounding(1_991_530n, 199_153_000n, 100, 1_000n)).toBe(false);
    expect(feeWithinUnitRounding(2_000n, 200_000n, 100, 1_000n)).toBe(true);
  });
  it('states the effective rate', () => {
    expect(effectiveBps(7n, 650n, 2, 'half_even')).toBe('107.69');
    expect(effectiveBps(1n, 0n, 2, 'half_even')).toBeNull();
  });
});
