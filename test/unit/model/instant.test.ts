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
