import { describe, expect, it } from 'vitest';
import { isNewer } from '../../../src/listen/apply-deliveries.js';

describe('isNewer (which delivery of a payment wins)', () => {
  const at = (updated_at: string, status_class: 'completed' | 'failed' | 'open' | 'unknown') => ({ updated_at, status_class });

  it('prefers the later updated_at, whatever the status', () => {
    expect(isNewer(at('2026-11-25T10:00:00.000002Z', 'open'), at('2026-11-25T10:00:00.000001Z', 'completed'))).toBe(true);
    expect(isNewer(at('2026-11-25T10:00:00.000001Z', 'completed'), at('2026-11-25T10:00:00.000002Z', 'open'))).toBe(false);
  });

  it('on a tie, a final status outranks an open one, and equal ranks are not newer', () => {
    const t = '2026-11-25T10:00:00.000000Z';
    expect(isNewer(at(t, 'completed'), at(t, 'open'))).toBe(true);
    expect(isNewer(at(t, 'failed'), at(t, 'open'))).toBe(true);
    expect(isNewer(at(t, 'open'), at(t, 'completed'))).toBe(false);
    expect(isNewer(at(t, 'open'), at(t, 'unknown'))).toBe(true);
    expect(isNewer(at(t, 'completed'), at(t, 'completed'))).toBe(false);
  });
});
