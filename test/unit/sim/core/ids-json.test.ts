import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isUuid, paymentIdOf, paymentIndexOf, uuidOf } from '../../../../src/sim/core/ids.js';
import { JsonSyntaxError, parseJsonLossless, stringifyJson } from '../../../../src/sim/core/json.js';
import { formatMicros, parseMicros } from '../../../../src/sim/core/time.js';

describe('payment ids', () => {
  it('are version-4-shaped UUIDs that invert to their index', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 0xffffffff }), fc.integer({ min: 0, max: 50_000_000 }), (seed, index) => {
        const id = paymentIdOf(seed, index);
        expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
        expect(paymentIndexOf(seed, id, index + 1)).toBe(index);
        expect(paymentIndexOf(seed, id.toUpperCase(), index + 1)).toBe(index);
      }),
    );
  });

  it('reject ids of other seeds, beyond the count, or not UUIDs', () => {
    const id = paymentIdOf(7, 10);
    expect(paymentIndexOf(8, id, 100)).toBeNull();
    expect(paymentIndexOf(7, id, 10)).toBeNull();
    expect(paymentIndexOf(7, 'not-a-uuid', 100)).toBeNull();
    expect(paymentIndexOf(7, uuidOf(7, 1, 10), 100)).toBeNull();
    expect(isUuid(uuidOf(1, 2, 3))).toBe(true);
  });
});

describe('bigint-aware JSON', () => {
  it('writes bigints as exact integers and reads them back as bigints', () => {
    const value = { a: 9_007_199_254_740_993n, b: [1n, -12_345_678_901_234_567_890n], c: 'x', d: 1.5, e: null };
    const text = stringifyJson(value);
    expect(text).toBe('{"a":9007199254740993,"b":[1,-12345678901234567890],"c":"x","d":1.5,"e":null}');
    expect(parseJsonLossless(text)).toEqual({ a: 9_007_199_254_740_993n, b: [1, -12_345_678_901_234_567_890n], c: 'x', d: 1.5, e: null });
  });

  it('stays exact when a string looks like its internal bigint marker', () => {
    const value = { marker: '\u0000~bigint~5', n: 10n ** 20n };
    expect(parseJsonLossless(stringifyJson(value))).toEqual(value);
  });

  it('round-trips any JSON value, including hostile strings (integers beyond 2^53 come back as bigint)', () => {
    const lossless = (v: unknown): unknown =>
      // JSON text of such a double is its shortest digits (no exponent below 1e21): that is what comes back
      typeof v === 'number' && Number.isInteger(v) && !Number.isSafeInteger(v) && Math.abs(v) < 1e21
        ? BigInt(String(v))
        : Array.isArray(v)
          ? v.map(lossless)
          : v !== null && typeof v === 'object'
            ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, lossless(x)]))
            : v;
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        expect(parseJsonLossless(stringifyJson(v))).toEqual(lossless(JSON.parse(JSON.stringify(v))));
      }),
    );
  });

  it('rejects malformed text', () => {
    for (const bad of ['', '{', '{"a":}', '[1,]', '01', 'nul', '{"a":1} x']) expect(() => parseJsonLossless(bad), bad).toThrow(JsonSyntaxError);
  });

  it('keeps __proto__ keys as plain data', () => {
    const parsed = parseJsonLossless('{"__proto__":{"polluted":true}}') as Record<string, unknown>;
    expect(Object.keys(parsed)).toEqual(['__proto__']);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });
});

describe('instants', () => {
  it('format microseconds RFC 3339 with trailing zeros trimmed', () => {
    const us = Date.UTC(2026, 9, 1) * 1000;
    expect(formatMicros(us)).toBe('2026-10-01T00:00:00Z');
    expect(formatMicros(us + 302_190)).toBe('2026-10-01T00:00:00.30219Z');
    expect(formatMicros(us - 1)).toBe('2026-09-30T23:59:59.999999Z');
    expect(parseMicros('2026-10-01T02:00:00.30219+02:00')).toBe(us + 302_190);
  });
});
