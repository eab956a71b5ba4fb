/**
 * ZonedClock's caches (the minute's offset, the seconds read off a cached minute, the last ISO
 * text) against a clock with no history: whatever came before, a call must answer what a fresh
 * clock answers — around DST changes, for instants not in canonical form, for text that only
 * starts like the cached minute.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ZonedClock } from '../../../src/model/zoned-time.js';

const ZONES = ['UTC', 'Europe/Berlin', 'America/St_Johns', 'Australia/Lord_Howe'];

/** UTC minutes on both sides of offset changes (Berlin, St John's, Lord Howe's half hour) and plain ones. */
const MINUTES = [
  '2026-03-29T00:59',
  '2026-03-29T01:00',
  '2026-10-25T00:59',
  '2026-10-25T01:00',
  '2026-03-08T05:29',
  '2026-03-08T05:30',
  '2026-04-04T14:59',
  '2026-04-04T15:00',
  '2026-10-01T04:00',
];

/** Other spellings of an instant and text that only begins like one. */
const VARIANTS: ReadonlyArray<(minute: string, ss: string, micros: string) => string> = [
  (m, s, f) => `${m}:${s}.${f}Z`,
  (m, s, f) => `${m}:${s}.${f}Z`,
  (m, s) => `${m}:${s}Z`,
  (m, s, f) => `${m}:${s}.${f.slice(0, 3)}+00:00`,
  (m, s, f) => `${m.replace('T', 't')}:${s}.${f}z`,
  (m, s, f) => `${m}:${s}.${f}7Z`,
  (m, s, f) => `${m}:${s}.${f}`,
  (m, s, f) => `${m}:${s}.${f}ZZ`,
  (m, s, f) => `${m}:${s}.${f}z`,
  (m, s, f) => `${m}:${s}.${f}+`,
  (m, s, f) => `${m}:${s.slice(0, 1)}x.${f}Z`,
  (m, s, f) => `${m}:${s},${f}Z`,
];

const call = fc.record({
  zone: fc.constantFrom(...ZONES),
  minute: fc.constantFrom(...MINUTES),
  // seconds 60-99 are canonical in shape too, but the cached minute's local text then depends on
  // which instant entered it, before this cache as after it: no row holds one (toUtcInstant refuses them)
  seconds: fc.integer({ min: 0, max: 59 }),
  micros: fc.integer({ min: 0, max: 999_999 }),
  variant: fc.integer({ min: 0, max: VARIANTS.length - 1 }),
  op: fc.constantFrom('iso', 'wallClock', 'parts'),
});

function ask(clock: ZonedClock, op: string, text: string): unknown {
  if (op === 'iso') return clock.iso(text);
  if (op === 'wallClock') return clock.wallClock(text)?.getTime() ?? null;
  return clock.parts(text);
}

describe('ZonedClock caches', () => {
  it('answer every call as a clock with no history does, in any order', () => {
    fc.assert(
      fc.property(fc.array(call, { minLength: 1, maxLength: 40 }), (calls) => {
        const clocks = new Map(ZONES.map((z) => [z, new ZonedClock(z)]));
        for (const c of calls) {
          const variant = VARIANTS[c.variant] as (typeof VARIANTS)[number];
          const text = variant(c.minute, String(c.seconds).padStart(2, '0'), String(c.micros).padStart(6, '0'));
          expect(ask(clocks.get(c.zone) as ZonedClock, c.op, text), `${c.zone} ${c.op} ${text}`).toEqual(ask(new ZonedClock(c.zone), c.op, text));
        }
      }),
      { numRuns: 500 },
    );
  });

  it('a forked clock (one per column) answers as a fresh one, and leaves its parent’s caches alone', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(call, fc.nat(2)), { minLength: 1, maxLength: 40 }), (calls) => {
        const families = new Map(ZONES.map((z) => {
          const parent = new ZonedClock(z);
          return [z, [parent, parent.fork(), parent.fork()]] as const;
        }));
        for (const [c, which] of calls) {
          const variant = VARIANTS[c.variant] as (typeof VARIANTS)[number];
          const text = variant(c.minute, String(c.seconds).padStart(2, '0'), String(c.micros).padStart(6, '0'));
          const clock = (families.get(c.zone) as readonly ZonedClock[])[which] as ZonedClock;
          expect(clock.tz).toBe(c.zone);
          expect(ask(clock, c.op, text), `${c.zone} #${which} ${c.op} ${text}`).toEqual(ask(new ZonedClock(c.zone), c.op, text));
        }
      }),
      { numRuns: 300 },
    );
  });

  it('changes the offset on the minute a DST change happens, with the cached minute just before it', () => {
    const berlin = new ZonedClock('Europe/Berlin');
    expect(berlin.iso('2026-10-25T00:59:59.999999Z')).toBe('2026-10-25T02:59:59.999999+02:00');
    expect(berlin.wallClock('2026-10-25T00:59:30.000000Z')?.toISOString()).toBe('2026-10-25T02:59:30.000Z');
    expect(berlin.iso('2026-10-25T01:00:00.000000Z')).toBe('2026-10-25T02:00:00.000000+01:00');
    expect(berlin.wallClock('2026-10-25T01:00:59.000001Z')?.toISOString()).toBe('2026-10-25T02:00:59.000Z');
    expect(berlin.iso('2026-10-25T01:00:00.000000Z')).toBe('2026-10-25T02:00:00.000000+01:00');
  });

  it('reads text in the cached minute that is not canonical the slow way, or refuses it', () => {
    const utc = new ZonedClock('UTC');
    expect(utc.iso('2026-10-01T04:00:10.000000Z')).toBe('2026-10-01T04:00:10.000000+00:00');
    expect(utc.iso('2026-10-01T04:00:20.5Z')).toBe('2026-10-01T04:00:20.500000+00:00');
    expect(utc.parts('2026-10-01T04:00:30+00:00')).toEqual({ utcSecondsMs: Date.UTC(2026, 9, 1, 4, 0, 30), micros: '000000', offsetMinutes: 0 });
    expect(utc.iso('2026-10-01T04:00:3x.000000Z')).toBeNull();
    expect(utc.wallClock('2026-10-01T04:00:30.000000ZZ')).toBeNull();
  });
});
