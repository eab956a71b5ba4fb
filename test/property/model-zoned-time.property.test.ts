import fc from 'fast-check';
import { TZDate } from '@date-fns/tz';
import { format } from 'date-fns';
import { describe, expect, it } from 'vitest';
import { ZonedClock } from '../../src/model/zoned-time.js';

const ZONES = ['UTC', 'Europe/Berlin', 'America/New_York', 'America/St_Johns', 'Asia/Kolkata', 'Australia/Lord_Howe', 'Pacific/Chatham', 'America/Sao_Paulo'];
const FROM = Date.UTC(2000, 0, 1);
const TO = Date.UTC(2040, 0, 1);

describe('ZonedClock (property)', () => {
  it('agrees with date-fns + @date-fns/tz for any instant, zone and order (minute cache included)', () => {
    const clocks = new Map(ZONES.map((z) => [z, new ZonedClock(z)]));
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.constantFrom(...ZONES), fc.integer({ min: FROM / 1000, max: TO / 1000 }), fc.integer({ min: 0, max: 999_999 })), { minLength: 1, maxLength: 20 }), (cases) => {
        for (const [zone, seconds, micros] of cases) {
          const instant = `${new Date(seconds * 1000).toISOString().slice(0, 19)}.${String(micros).padStart(6, '0')}Z`;
          const expected = `${format(new TZDate(seconds * 1000, zone), "yyyy-MM-dd'T'HH:mm:ss")}.${String(micros).padStart(6, '0')}${format(new TZDate(seconds * 1000, zone), 'xxx')}`;
          expect((clocks.get(zone) as ZonedClock).iso(instant)).toBe(expected);
        }
      }),
      { numRuns: 300 },
    );
  });
});
