import { describe, expect, it } from 'vitest';
import { formatOffset, isValidTimeZone, ZonedClock } from '../../../src/model/zoned-time.js';
import { AppError } from '../../../src/util/errors.js';

describe('ZonedClock', () => {
  it('renders the zone offset across a DST change, keeping microseconds', () => {
    const berlin = new ZonedClock('Europe/Berlin');
    expect(berlin.iso('2026-10-25T00:30:00.123456Z')).toBe('2026-10-25T02:30:00.123456+02:00');
    expect(berlin.iso('2026-10-25T01:30:00.000001Z')).toBe('2026-10-25T02:30:00.000001+01:00');
  });

  it('handles negative and half-hour offsets', () => {
    expect(new ZonedClock('America/St_Johns').iso('2026-01-15T12:00:00.000000Z')).toBe('2026-01-15T08:30:00.000000-03:30');
    expect(new ZonedClock('Asia/Kolkata').iso('2026-01-15T12:00:00.000000Z')).toBe('2026-01-15T17:30:00.000000+05:30');
  });

  it('writes UTC as +00:00', () => {
    expect(new ZonedClock('UTC').iso('2026-10-01T00:00:00.000000Z')).toBe('2026-10-01T00:00:00.000000+00:00');
  });

  it('gives the wall-clock time as a Date for Excel date cells, truncated to the second', () => {
    expect(new ZonedClock('Europe/Berlin').wallClock('2026-07-01T10:00:00.250000Z')?.toISOString()).toBe('2026-07-01T12:00:00.000Z');
    // a hh:mm:ss format would round .999999 up into the next day
    expect(new ZonedClock('Europe/Berlin').wallClock('2026-10-31T22:59:59.999999Z')?.toISOString()).toBe('2026-10-31T23:59:59.000Z');
  });

  it('passes null through and refuses text that is not an instant', () => {
    const c = new ZonedClock('UTC');
    expect(c.iso(null)).toBeNull();
    expect(c.iso('yesterday')).toBeNull();
    expect(c.iso('2026-10-01T02:00:00+02:00')).toBe('2026-10-01T00:00:00.000000+00:00');
  });

  it('rejects an unknown zone as a usage error', () => {
    expect(isValidTimeZone('Mars/Olympus')).toBe(false);
    expect(() => new ZonedClock('Mars/Olympus')).toThrow(AppError);
    try {
      new ZonedClock('Mars/Olympus');
    } catch (error) {
      expect((error as AppError).exitCode).toBe(64);
    }
  });

  it('formats offsets', () => {
    expect([formatOffset(0), formatOffset(330), formatOffset(-210)]).toEqual(['+00:00', '+05:30', '-03:30']);
  });
});
