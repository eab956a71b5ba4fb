import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { toUtcInstant } from '../../../src/model/instant.js';

describe('toUtcInstant', () => {
  it.each([
    ['2025-02-12T21:22:50.30219Z', '2025-02-12T21:22:50.302190Z'],
    ['2025-02-12T21:22:50Z', '2025-02-12T21:22:50.000000Z'],
    ['2026-10-01T00:00:00.123456-04:00', '2026-10-01T04:00:00.123456Z'],
    ['2026-03-01T00:30:00+01:00', '2026-02-28T23:30:00.000000Z'],
    ['2026-10-01T00:00:00.1234567891Z', null],
    ['2026-02-30T00:00:00Z', null],
    ['2026-10-01T00:00:00', null],
    ['yesterday', null],
  ])('%s → %s', (input, expected) => {
    expect(toUtcInstant(input)).toBe(expected);
  });

  it('keeps nanosecond inputs to the microsecond (truncates, documented)', () => {
    expect(toUtcInstant('2026-10-01T00:00:00.123456789Z')).toBe('2026-10-01T00:00:00.123456Z');
  });
});

describe('toUtcInstant on text already canonical', () => {
  // the same instant with `+00:00` for `Z` is read by the regex: the fast path must agree with it
  const viaRegex = (canonical: string): string | null => toUtcInstant(`${canonical.slice(0, 26)}+00:00`);

  it.each([
    ['2026-10-01T04:00:00.123456Z', true],
    ['2024-02-29T23:59:59.999999Z', true],
    ['2000-02-29T00:00:00.000000Z', true],
    ['2023-02-29T00:00:00.000000Z', false],
    ['1900-02-29T00:00:00.000000Z', false],
    ['2026-04-31T00:00:00.000000Z', false],
    ['2026-00-10T00:00:00.000000Z', false],
    ['2026-13-10T00:00:00.000000Z', false],
    ['2026-10-00T00:00:00.000000Z', false],
    ['2026-10-01T24:00:00.000000Z', false],
    ['2026-10-01T23:60:00.000000Z', false],
    ['2026-10-01T23:59:60.000000Z', false],
    ['0099-12-31T00:00:00.000000Z', false],
    ['0100-01-01T00:00:00.000000Z', true],
    ['9999-12-31T23:59:59.999999Z', true],
  ])('%s is valid: %s', (text, valid) => {
    expect(toUtcInstant(text)).toBe(valid ? text : null);
    expect(toUtcInstant(text)).toBe(viaRegex(text));
  });

  it('agrees with the regex on any digits in the canonical shape', () => {
    const n = (max: number, width: number) => fc.integer({ min: 0, max }).map((v) => String(v).padStart(width, '0'));
    fc.assert(
      fc.property(fc.tuple(n(9999, 4), n(99, 2), n(99, 2), n(99, 2), n(99, 2), n(99, 2), n(999_999, 6)), ([y, mo, d, h, mi, s, f]) => {
        const text = `${y}-${mo}-${d}T${h}:${mi}:${s}.${f}Z`;
        expect(toUtcInstant(text)).toBe(viaRegex(text));
      }),
      { numRuns: 3000 },
    );
    // and near the valid range, where the calendar decides
    fc.assert(
      fc.property(fc.integer({ min: Date.UTC(1890, 0, 1), max: Date.UTC(2110, 0, 1) }), fc.integer({ min: -3, max: 3 }), (ms, dayShift) => {
        const iso = new Date(ms).toISOString();
        const day = Number(iso.slice(8, 10)) + dayShift;
        const text = `${iso.slice(0, 8)}${String(Math.max(0, day)).padStart(2, '0')}${iso.slice(10, 19)}.123456Z`;
        expect(toUtcInstant(text)).toBe(viaRegex(text));
      }),
      { numRuns: 3000 },
    );
  });
});
