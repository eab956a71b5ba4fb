import { describe, expect, it } from 'vitest';
import { AmountParseError, parseBaseAmount, tryParseBaseAmount } from '../../../src/money/amount-parser.js';
import { exitCodeOf } from '../../../src/util/errors.js';

describe('parseBaseAmount', () => {
  it.each([
    [0, 0n],
    [-0, 0n],
    [150000, 150000n],
    [-1500, -1500n],
    [Number.MAX_SAFE_INTEGER, 9007199254740991n],
    [2100000000000000000n, 2100000000000000000n],
    ['0', 0n],
    ['-0', 0n],
    ['123', 123n],
    ['-123', -123n],
    ['2100000000000000001', 2100000000000000001n],
    ['340282366920938463463374607431768211457', 340282366920938463463374607431768211457n],
  ])('accepts %s', (input, expected) => {
    expect(parseBaseAmount(input, 'data.amount.amount')).toBe(expected);
  });

  it.each([
    ['1e3', 'non_canonical_string'],
    ['1,000', 'non_canonical_string'],
    ['', 'non_canonical_string'],
    [' 5', 'non_canonical_string'],
    ['5 ', 'non_canonical_string'],
    ['+5', 'non_canonical_string'],
    ['05', 'non_canonical_string'],
    ['12.3.4', 'non_canonical_string'],
    ['1.0', 'non_canonical_string'],
    ['NaN', 'non_canonical_string'],
    ['Infinity', 'non_canonical_string'],
    ['0x10', 'non_canonical_string'],
    ['١٢٣', 'non_canonical_string'],
    [1.5, 'not_integer'],
    [1000.5, 'not_integer'],
    [Number.NaN, 'not_finite'],
    [Number.POSITIVE_INFINITY, 'not_finite'],
    [2 ** 53, 'unsafe_number'],
    [2100000000000000000, 'unsafe_number'],
    [null, 'missing'],
    [undefined, 'missing'],
    [true, 'wrong_type'],
    [false, 'wrong_type'],
    [{ amount: 1 }, 'wrong_type'],
    [[1], 'wrong_type'],
  ] as const)('rejects %j as %s, naming the field path', (input, reason) => {
    const result = tryParseBaseAmount(input, 'data.fees.amount');
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error).toBeInstanceOf(AmountParseError);
    expect(result.error.reason).toBe(reason);
    expect(result.error.path).toBe('data.fees.amount');
    expect(result.error.message).toContain('data.fees.amount');
    expect(() => parseBaseAmount(input, 'data.fees.amount')).toThrow(/data\.fees\.amount/);
  });

  it('is data that cannot be booked: exit code 65', () => {
    const result = tryParseBaseAmount('1e3', 'x');
    expect(result.ok || exitCodeOf(result.error)).toBe(65);
  });

  it('applies the sign and range options', () => {
    expect(tryParseBaseAmount(-1, 'p', { nonNegative: true })).toMatchObject({ ok: false, error: { reason: 'negative' } });
    expect(tryParseBaseAmount(2n ** 64n, 'p', { maxAbs: 2n ** 64n - 1n })).toMatchObject({ ok: false, error: { reason: 'out_of_range' } });
    expect(tryParseBaseAmount(-(2n ** 64n) + 1n, 'p', { maxAbs: 2n ** 64n - 1n })).toMatchObject({ ok: true });
  });

  it('keeps hostile strings short in the message', () => {
    const result = tryParseBaseAmount('=HYPERLINK("x")'.repeat(20), 'memo');
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.message.length).toBeLessThan(200);
  });
});
