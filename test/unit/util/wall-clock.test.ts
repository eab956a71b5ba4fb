import { describe, expect, it } from 'vitest';
import { AppError } from '../../../src/util/errors.js';
import { wallClockFrom } from '../../../src/util/wall-clock.js';

describe('wallClockFrom', () => {
  it('reads the system clock when PAYEXPORT_NOW is unset or empty', () => {
    let real = 1_800_000_000_000;
    for (const env of [{}, { PAYEXPORT_NOW: '' }]) {
      const clock = wallClockFrom(env, () => real);
      expect(clock().getTime()).toBe(real);
      real += 5;
      expect(clock().getTime()).toBe(real);
    }
  });

  it('starts at the pinned instant and advances at the real rate (durations stay real)', () => {
    let real = 1_800_000_000_000;
    const clock = wallClockFrom({ PAYEXPORT_NOW: '2028-02-29T23:59:59.500Z' }, () => real);
    expect(clock().toISOString()).toBe('2028-02-29T23:59:59.500Z');
    real += 1_000;
    expect(clock().toISOString()).toBe('2028-03-01T00:00:00.500Z');
  });

  it('takes an offset instant as the same moment in UTC', () => {
    const clock = wallClockFrom({ PAYEXPORT_NOW: '2027-03-14T01:30:00-05:00' }, () => 0);
    expect(clock().toISOString()).toBe('2027-03-14T06:30:00.000Z');
  });

  it('refuses a malformed pin on its first reading, as a configuration error (exit 78) naming the variable', () => {
    for (const text of ['2026-11-15', 'tomorrow', '2026-13-01T00:00:00Z', '1700000000']) {
      const clock = wallClockFrom({ PAYEXPORT_NOW: text }, () => 0);
      let caught: unknown;
      try {
        clock();
      } catch (error) {
        caught = error;
      }
      expect(caught, text).toBeInstanceOf(AppError);
      expect((caught as AppError).exitCode).toBe(78);
      expect((caught as AppError).message).toContain('PAYEXPORT_NOW');
    }
  });
});
