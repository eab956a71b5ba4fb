import { describe, expect, it } from 'vitest';
import { windowContains } from '../../../src/model/window.js';

describe('windowContains', () => {
  const october = { from: '2026-10-01T04:00:00.000000Z', to: '2026-11-01T04:00:00.000000Z', tz: 'America/New_York' };

  it('includes the start and excludes the end (half-open)', () => {
    expect(windowContains(october, '2026-10-01T04:00:00.000000Z')).toBe(true);
    expect(windowContains(october, '2026-11-01T03:59:59.999999Z')).toBe(true);
    expect(windowContains(october, '2026-11-01T04:00:00.000000Z')).toBe(false);
    expect(windowContains(october, '2026-10-01T03:59:59.999999Z')).toBe(false);
  });
});
