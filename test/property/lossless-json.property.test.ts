/**
 * parseJson against lossless-json as the oracle: any JSON text, with integers of every size,
 * floats, exponents, negative numbers and strings full of digits and escaped quotes.
 */
import fc from 'fast-check';
import { isInteger, parse as losslessParse } from 'lossless-json';
import { describe, expect, it } from 'vitest';
import { hasLongIntegerLiteral, parseExact, parseJson } from '../../src/api/json.js';

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/** The WireInt contract expressed with lossless-json's own number classification. */
function oracleNumber(text: string): number | bigint {
  if (!isInteger(text)) return Number(text);
  const exact = BigInt(text);
  return exact > MAX_SAFE || exact < -MAX_SAFE ? exact : Number(text);
}

const bigIntLiteral = fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }).map(String);
const aroundSafeEdge = fc.bigInt({ min: MAX_SAFE - 5n, max: MAX_SAFE + 5n }).chain((n) => fc.constantFrom(String(n), String(-n)));
const floatLiteral = fc.tuple(fc.bigInt({ min: -(10n ** 20n), max: 10n ** 20n }), fc.nat({ max: 10 ** 6 }), fc.integer({ min: -30, max: 30 }), fc.boolean()).map(
  ([int, frac, exp, useExp]) => `${int}.${frac}${useExp ? `e${exp}` : ''}`,
);
const expLiteral = fc.tuple(fc.bigInt({ min: -(10n ** 18n), max: 10n ** 18n }), fc.integer({ min: -20, max: 20 })).map(([m, e]) => `${m}E${e >= 0 ? '+' : ''}${e}`);
const numberLiteral = fc.oneof(bigIntLiteral, aroundSafeEdge, floatLiteral, expLiteral, fc.integer().map(String));

const digityString = fc.oneof(
  fc.string(),
  fc.bigInt({ min: 0n, max: 10n ** 40n }).map((n) => `${n}`),
  fc.array(fc.constantFrom('1', '9', '"', '\\', ' ', ':', ',', '{', ']', 'é', '\n', 'x'), { maxLength: 40 }).map((chars) => chars.join('')),
);

/** JSON text built directly (so number literals survive exactly as written). */
const jsonText: fc.Arbitrary<string> = fc.letrec<{ value: string }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    numberLiteral,
    digityString.map((s) => JSON.stringify(s)),
    fc.constantFrom('true', 'false', 'null'),
    fc.array(tie('value'), { maxLength: 5 }).map((items) => `[${items.join(',')}]`),
    // unique keys: lossless-json refuses duplicate keys, JSON.parse keeps the last
    fc.uniqueArray(fc.tuple(digityString, tie('value')), { maxLength: 5, selector: ([key]) => key }).map((entries) => `{${entries.map(([k, v]) => `${JSON.stringify(k)}: ${v}`).join(', ')}}`),
  ),
})).value;

describe('parseJson vs lossless-json', () => {
  it('agrees with the oracle on arbitrary documents', () => {
    fc.assert(
      fc.property(jsonText, (text) => {
        expect(parseJson(text)).toEqual(losslessParse(text, null, oracleNumber));
      }),
      { numRuns: 2_000 },
    );
  });

  it('never rounds an integer literal', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }), (n) => {
        const value = (parseJson(`{"amount": ${n}}`) as { amount: number | bigint }).amount;
        expect(BigInt(value)).toBe(n);
        expect(typeof value).toBe(n > MAX_SAFE || n < -MAX_SAFE ? 'bigint' : 'number');
      }),
      { numRuns: 2_000 },
    );
  });

  it('takes the JSON.parse fast path only when that is exact', () => {
    fc.assert(
      fc.property(jsonText, (text) => {
        if (!hasLongIntegerLiteral(text)) expect(JSON.parse(text)).toEqual(parseExact(text));
      }),
      { numRuns: 2_000 },
    );
  });
});
