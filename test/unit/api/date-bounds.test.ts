import { describe, expect, it } from 'vitest';
import { apiDateBounds, minusOneMicrosecond } from '../../../src/api/date-bounds.js';

describe('API bounds', () => {
  it('end_date is the last included microsecond', () => {
    expect(apiDateBounds({ from: '2026-10-01T04:00:00.000000Z', to: '2026-11-01T04:00:00.000000Z', tz: 'x' })).toEqual({
      start_date: '2026-10-01T04:00:00.000000Z',
      end_date: '2026-11-01T03:59:59.999999Z',
    });
    expect(minusOneMicrosecond('2026-11-01T00:00:00.000010Z')).toBe('2026-11-01T00:00:00.000009Z');
    expect(minusOneMicrosecond('2026-01-01T00:00:00.000000Z')).toBe('2025-12-31T23:59:59.999999Z');
  });
});
