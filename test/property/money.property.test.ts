import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { tryParseBaseAmount } from '../../src/money/amount-parser.js';
import { feeAtBps, feeWithinRounding } from '../../src/money/bps.js';
import { decimalDivide, decimalFeeAtBps, decimalMsatsToQuoted, decimalQuotedToMsats, decimalSum } from '../../src/money/decimal.js';
import { formatBase, parseDecimalToBase, rescale, toDisplay } from '../../src/money/format.js';
import { money, sum } from '../../src/money/money.js';
import { msatsToQuoted, parseRate, quotedToMsats } from '../../src/money/rate.js';
import { divRound, ROUNDING_MODES } from '../../src/money/rounding.js';
import { msatsToSats, satsToMsats } from '../../src/money/units.js';

const RUNS = { numRuns: 500 };
/** 21M BTC in msats: every bitcoin there will ever be. */
const ALL_BTC_MSATS = 2_100_000_000_000_000_000n;
const msats = fc.bigInt({ min: -ALL_BTC_MSATS, max: ALL_BTC_MSATS });
const beyond64 = fc.bigInt({ min: -(2n ** 80n), max: 2n ** 80n });
const rounding = fc.constantFrom(...ROUNDING_MODES);
/** decimal.js prints a negative zero (`-0`, `-0.00`); amounts never carry one. */
const noNegativeZero = (text: string): string => (/^-0(\.0*)?$/.test(text) ? text.slice(1) : text);

describe('display conversions round-trip', () => {
  it('msats → BTC (11 digits) → msats is the identity', () => {
    fc.assert(fc.property(msats, (m) => parseDecimalToBase(toDisplay(money('btc', m), { rounding: 'half_even' }) ?? '', 11) === m), RUNS);
  });
  it('cents → USD → cents and asset base units → display → base units are the identity', () => {
    fc.assert(fc.property(beyond64, (c) => parseDecimalToBase(toDisplay(money('usd', c), { rounding: 'half_even' }) ?? '', 2) === c), RUNS);
    fc.assert(
      fc.property(beyond64, fc.integer({ min: 0, max: 30 }), (b, decimals) => {
        const asset = `asset:${'ab'.repeat(33)}`;
        const shown = toDisplay(money(asset, b), { rounding: 'half_even', assetDecimals: new Map([[asset, decimals]]) }) ?? '';
        return parseDecimalToBase(shown, decimals) === b;
      }),
      RUNS,
    );
  });
  it('sats → msats → sats is the identity, and msats → sats rounds within one sat', () => {
    fc.assert(fc.property(beyond64, rounding, (s, mode) => msatsToSats(satsToMsats(s), mode) === s), RUNS);
    fc.assert(
      fc.property(msats, rounding, (m, mode) => {
        const sats = msatsToSats(m, mode);
        const distance = satsToMsats(sats) - m;
        return distance > -1000n && distance < 1000n;
      }),
      RUNS,
    );
  });
  it('showing fewer digits rounds exactly like decimal.js at 100 digits', () => {
    fc.assert(
      fc.property(beyond64, fc.integer({ min: 0, max: 11 }), rounding, (m, decimals, mode) => {
        const ours = rescale(m, 11, decimals, mode);
        return ours === noNegativeZero(decimalDivide(m, 10n ** 11n, decimals, mode));
      }),
      RUNS,
    );
  });
  it('never writes exponent notation', () => {
    fc.assert(fc.property(beyond64, fc.integer({ min: 0, max: 40 }), (b, scale) => /^-?\d+(\.\d+)?$/.test(formatBase(b, scale))), RUNS);
  });
});

describe('sums', () => {
  it('are exact and order-independent up to 21M BTC in msats and beyond 2^64', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(msats, beyond64), { maxLength: 200 }), fc.integer(), (values, seed) => {
        const amounts = values.map((v) => money('btc', v));
        const shuffled = [...amounts].sort((a, b) => ((Number(a.base % 97n) + seed) % 7) - ((Number(b.base % 97n) + seed) % 7));
        const total = sum('btc', amounts).base;
        return total === sum('btc', shuffled).base && total.toString() === decimalSum(values);
      }),
      RUNS,
    );
  });
  it('survive a sum far beyond 2^64 (a million maximal amounts)', () => {
    const values = Array.from({ length: 1_000_000 }, (_, i) => ALL_BTC_MSATS - BigInt(i));
    const total = sum('btc', values.map((v) => money('btc', v))).base;
    expect(total).toBe(ALL_BTC_MSATS * 1_000_000n - (999_999n * 1_000_000n) / 2n);
    expect(total > 2n ** 64n).toBe(true);
  });
});

describe('BigInt money math agrees with decimal.js (private clone, 100 digits)', () => {
  const rate = fc.record({ coefficient: fc.bigInt({ min: 1n, max: 10n ** 24n }), scale: fc.integer({ min: 0, max: 12 }) });
  it('divRound = decimal division for every rounding mode', () => {
    fc.assert(
      fc.property(beyond64, fc.bigInt({ min: 1n, max: 2n ** 70n }), fc.boolean(), rounding, (n, d, negative, mode) => {
        const denominator = negative ? -d : d;
        return divRound(n, denominator, mode).toString() === noNegativeZero(decimalDivide(n, denominator, 0, mode));
      }),
      RUNS,
    );
  });
  it('quote conversions in both directions', () => {
    fc.assert(
      fc.property(msats, rate, rounding, (m, r, mode) => msatsToQuoted(m, r, mode) === decimalMsatsToQuoted(m, r, mode) && quotedToMsats(m, r, mode) === decimalQuotedToMsats(m, r, mode)),
      RUNS,
    );
  });
  it('a rate string parses to what it spells', () => {
    fc.assert(
      fc.property(rate, (r) => {
        const parsed = parseRate(`${r.coefficient}e${r.scale}`);
        return parsed !== null && parsed.coefficient === r.coefficient && parsed.scale === r.scale;
      }),
      RUNS,
    );
  });
  it('basis points', () => {
    fc.assert(
      fc.property(msats, fc.integer({ min: 0, max: 10_000 }), rounding, (principal, bps, mode) => {
        const fee = feeAtBps(principal, bps, mode);
        return fee === decimalFeeAtBps(principal, bps, mode) && feeWithinRounding(fee, principal, bps);
      }),
      RUNS,
    );
  });
  it('the bps check accepts only the two integer neighbours of the exact fee', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: ALL_BTC_MSATS }), fc.integer({ min: 1, max: 10_000 }), fc.bigInt({ min: 2n, max: 10n ** 6n }), (principal, bps, off) => {
        const floor = feeAtBps(principal, bps, 'floor');
        const ceil = feeAtBps(principal, bps, 'ceil');
        return feeWithinRounding(floor, principal, bps) && feeWithinRounding(ceil, principal, bps) && !feeWithinRounding(ceil + off - 1n, principal, bps) && !feeWithinRounding(floor - off, principal, bps);
      }),
      RUNS,
    );
  });
});

describe('the strict amount grammar', () => {
  const CANONICAL = /^-?(0|[1-9][0-9]*)$/;
  it('no malformed string ever becomes a number', () => {
    const nearMisses = fc.oneof(
      fc.string(),
      fc.string({ unit: fc.constantFrom('0', '1', '9', '-', '+', '.', 'e', 'E', ',', ' ', '_', '\u00a0', '\u0661', 'x') }),
      msats.map((m) => `${m}.0`),
      msats.map((m) => `${m}e0`),
      msats.map((m) => ` ${m}`),
      msats.map((m) => `+${m}`),
      msats.map((m) => `0${m < 0n ? -m : m}`),
      msats.map((m) => m.toLocaleString('en-US')),
    );
    fc.assert(
      fc.property(nearMisses, (s) => {
        const result = tryParseBaseAmount(s, 'data.amount.amount');
        return CANONICAL.test(s) ? result.ok && result.value.toString() === s.replace(/^-0$/, '0') : !result.ok && result.error.path === 'data.amount.amount';
      }),
      { numRuns: 3_000 },
    );
  });
  it('canonical digit strings and bigints round-trip exactly', () => {
    fc.assert(
      fc.property(beyond64, (b) => {
        const fromString = tryParseBaseAmount(b.toString(), 'p');
        const fromBigint = tryParseBaseAmount(b, 'p');
        return fromString.ok && fromString.value === b && fromBigint.ok && fromBigint.value === b;
      }),
      RUNS,
    );
  });
  it('a JS number is accepted only when it is a safe integer', () => {
    fc.assert(
      fc.property(fc.double(), (x) => {
        const result = tryParseBaseAmount(x, 'p');
        return Number.isSafeInteger(x) ? result.ok && result.value === BigInt(x) : !result.ok;
      }),
      { numRuns: 2_000 },
    );
  });
});
