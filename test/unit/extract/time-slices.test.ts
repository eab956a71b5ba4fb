import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { nextWholeSecond, rangeFilters, splitRange, MAX_SLICES } from '../../../src/extract/time-slices.js';

const OCT = { from: '2026-10-01T00:00:00.000000Z', to: '2026-11-01T00:00:00.000000Z' };

describe('splitRange', () => {
  it.each([
    { parts: 1, expected: [OCT] },
    {
      parts: 2,
      expected: [
        { from: OCT.from, to: '2026-10-16T12:00:00.000000Z' },
        { from: '2026-10-16T12:00:00.000000Z', to: OCT.to },
      ],
    },
  ])('cuts October into $parts', ({ parts, expected }) => {
    expect(splitRange(OCT, parts)).toEqual(expected);
  });

  it('keeps open ends open and spreads the inner boundaries over the span', () => {
    const slices = splitRange({ from: null, to: null }, 3, { from: '2026-10-01T00:00:00.000000Z', to: '2026-10-01T00:00:03.000000Z' });
    expect(slices).toEqual([
      { from: null, to: '2026-10-01T00:00:01.000000Z' },
      { from: '2026-10-01T00:00:01.000000Z', to: '2026-10-01T00:00:02.000000Z' },
      { from: '2026-10-01T00:00:02.000000Z', to: null },
    ]);
  });

  it('returns fewer slices when the span has too few whole seconds, never an empty one', () => {
    const range = { from: '2026-10-01T00:00:00.250000Z', to: '2026-10-01T00:00:01.750000Z' };
    expect(splitRange(range, 10)).toEqual([
      { from: range.from, to: '2026-10-01T00:00:01.000000Z' },
      { from: '2026-10-01T00:00:01.000000Z', to: range.to },
    ]);
  });

  it('tiles any range exactly: contiguous, increasing, inside it, at most MAX_SLICES', () => {
    const instant = fc.integer({ min: Date.parse('2020-01-01T00:00:00Z'), max: Date.parse('2030-01-01T00:00:00Z') }).chain((ms) =>
      fc.integer({ min: 0, max: 999_999 }).map((us) => `${new Date(ms).toISOString().slice(0, 19)}.${String(us).padStart(6, '0')}Z`),
    );
    fc.assert(
      fc.property(instant, instant, fc.integer({ min: 1, max: 200 }), (a, b, parts) => {
        fc.pre(a !== b);
        const range = a < b ? { from: a, to: b } : { from: b, to: a };
        const slices = splitRange(range, parts);
        expect(slices.length).toBeGreaterThanOrEqual(1);
        expect(slices.length).toBeLessThanOrEqual(Math.min(parts, MAX_SLICES));
        expect(slices[0]!.from).toBe(range.from);
        expect(slices.at(-1)!.to).toBe(range.to);
        for (let k = 0; k < slices.length; k++) {
          expect(slices[k]!.from! < slices[k]!.to!).toBe(true);
          if (k > 0) expect(slices[k]!.from).toBe(slices[k - 1]!.to);
        }
      }),
    );
  });
});

describe('rangeFilters / nextWholeSecond', () => {
  it('sends a half-open range as inclusive API bounds', () => {
    expect(rangeFilters(OCT)).toEqual({ startDate: OCT.from, endDate: '2026-10-31T23:59:59.999999Z' });
    expect(rangeFilters({ from: null, to: OCT.to })).toEqual({ endDate: '2026-10-31T23:59:59.999999Z' });
    expect(rangeFilters({ from: OCT.from, to: null })).toEqual({ startDate: OCT.from });
  });

  it('moves to the next whole second, strictly', () => {
    expect(nextWholeSecond('2026-10-01T00:00:00.000000Z')).toBe('2026-10-01T00:00:01.000000Z');
    expect(nextWholeSecond('2026-10-01T23:59:59.999999Z')).toBe('2026-10-02T00:00:00.000000Z');
  });
});
