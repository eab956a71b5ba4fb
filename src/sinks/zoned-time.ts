/**
 * Instants in the reporting time zone, exact to the microsecond.
 *
 * A `UtcInstant` (`2026-10-01T04:00:00.123456Z`) becomes `2026-10-01T06:00:00.123456+02:00` for the
 * CSV, and a wall-clock Date for an XLSX date cell (Excel has no time zones; the sheet's UTC
 * column keeps the exact instant). The offset comes from `@date-fns/tz` (Intl time-zone data);
 * offsets change only on whole minutes, so the last minute's offset is reused for rows sorted by
 * time — exact, and it spares an Intl call per row.
 */
import { tzOffset } from '@date-fns/tz';
import type { UtcInstant } from '../model/rows.js';
import { toUtcInstant } from '../model/instant.js';
import { usageError } from '../util/errors.js';

const CANONICAL = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

export interface ZonedParts {
  /** milliseconds since the epoch of the instant, whole seconds (microseconds are in `micros`) */
  utcSecondsMs: number;
  micros: string;
  offsetMinutes: number;
}

export class ZonedClock {
  readonly tz: string;
  private lastMinute = '';
  private lastOffset = 0;
  /** `lastMinute` in the zone (`YYYY-MM-DDTHH:MM`) and its offset text, for `iso` */
  private lastLocalMinute = '';
  private lastOffsetText = '+00:00';

  constructor(tz: string) {
    if (!isValidTimeZone(tz)) throw usageError('bad_time_zone', `unknown time zone "${tz}" (use an IANA name such as Europe/Berlin, or UTC)`);
    this.tz = tz;
  }

  /** Splits a UtcInstant and finds its offset in the zone; null for text that is not an instant. */
  parts(instant: UtcInstant): ZonedParts | null {
    const canonical = CANONICAL.test(instant) ? instant : toUtcInstant(instant);
    if (canonical === null) return null;
    const utcSecondsMs = Date.UTC(
      Number(canonical.slice(0, 4)),
      Number(canonical.slice(5, 7)) - 1,
      Number(canonical.slice(8, 10)),
      Number(canonical.slice(11, 13)),
      Number(canonical.slice(14, 16)),
      Number(canonical.slice(17, 19)),
    );
    const minute = canonical.slice(0, 16);
    if (minute !== this.lastMinute) {
      this.lastOffset = this.tz === 'UTC' ? 0 : tzOffset(this.tz, new Date(utcSecondsMs));
      this.lastMinute = minute;
      this.lastLocalMinute = new Date(utcSecondsMs + this.lastOffset * 60_000).toISOString().slice(0, 16);
      this.lastOffsetText = formatOffset(this.lastOffset);
    }
    return { utcSecondsMs, micros: canonical.slice(20, 26), offsetMinutes: this.lastOffset };
  }

  /** ISO 8601 with the zone's offset: `2026-10-01T06:00:00.123456+02:00`; null passes through. */
  iso(instant: UtcInstant | null): string | null {
    if (instant === null) return null;
    const canonical = CANONICAL.test(instant) ? instant : toUtcInstant(instant);
    if (canonical === null) return null;
    // offsets are whole minutes (every zone since 1972): seconds and fraction read the same in every zone
    if (canonical.slice(0, 16) !== this.lastMinute) this.parts(canonical);
    return `${this.lastLocalMinute}${canonical.slice(16, 26)}${this.lastOffsetText}`;
  }

  /**
   * A Date whose UTC fields are the zone's wall-clock time (what an Excel date cell shows),
   * truncated to the second: a `hh:mm:ss` format rounds, so 23:59:59.999 would show as the next
   * day. The exact instant is in the `_utc` column.
   */
  wallClock(instant: UtcInstant | null): Date | null {
    if (instant === null) return null;
    const p = this.parts(instant);
    if (p === null) return null;
    return new Date(p.utcSecondsMs + p.offsetMinutes * 60_000);
  }
}

export function formatOffset(offsetMinutes: number): string {
  const sign = offsetMinutes < 0 ? '-' : '+';
  const abs = Math.abs(offsetMinutes);
  const hh = String(Math.trunc(abs / 60)).padStart(2, '0');
  const mm = String(abs % 60).padStart(2, '0');
  return `${sign}${hh}:${mm}`;
}

export function isValidTimeZone(tz: string): boolean {
  if (tz === 'UTC') return true;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return !Number.isNaN(tzOffset(tz, new Date(0)));
  } catch {
    return false;
  }
}
