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
  /** the UTC minute (`YYYY-MM-DDTHH:MM`) whose offset is cached; '' before the first instant */
  private lastMinute = '';
  /** milliseconds since the epoch of `lastMinute`, second 0 */
  private lastMinuteMs = 0;
  private lastOffset = 0;
  /** `lastMinute` in the zone (`YYYY-MM-DDTHH:MM`) and its offset text, for `iso` */
  private lastLocalMinute = '';
  private lastOffsetText = '+00:00';
  /** the canonical form of the instant `locate` read last */
  private lastCanonical = '';
  /** the last instant `iso` rendered in the cached minute, and its text (a row shows one instant in several columns) */
  private lastIsoInstant = '';
  private lastIso = '';

  constructor(tz: string) {
    if (!isValidTimeZone(tz)) throw usageError('bad_time_zone', `unknown time zone "${tz}" (use an IANA name such as Europe/Berlin, or UTC)`);
    this.tz = tz;
  }

  /** Splits a UtcInstant and finds its offset in the zone; null for text that is not an instant. */
  parts(instant: UtcInstant): ZonedParts | null {
    const utcSecondsMs = this.locate(instant);
    if (Number.isNaN(utcSecondsMs)) return null;
    return { utcSecondsMs, micros: this.lastCanonical.slice(20, 26), offsetMinutes: this.lastOffset };
  }

  /** ISO 8601 with the zone's offset: `2026-10-01T06:00:00.123456+02:00`; null passes through. */
  iso(instant: UtcInstant | null): string | null {
    if (instant === null) return null;
    if (instant === this.lastIsoInstant) return this.lastIso;
    if (Number.isNaN(this.locate(instant))) return null;
    // offsets are whole minutes (every zone since 1972): seconds and fraction read the same in every zone
    this.lastIso = `${this.lastLocalMinute}${this.lastCanonical.slice(16, 26)}${this.lastOffsetText}`;
    this.lastIsoInstant = instant;
    return this.lastIso;
  }

  /**
   * A Date whose UTC fields are the zone's wall-clock time (what an Excel date cell shows),
   * truncated to the second: a `hh:mm:ss` format rounds, so 23:59:59.999 would show as the next
   * day. The exact instant is in the `_utc` column.
   */
  wallClock(instant: UtcInstant | null): Date | null {
    if (instant === null) return null;
    const utcSecondsMs = this.locate(instant);
    if (Number.isNaN(utcSecondsMs)) return null;
    return new Date(utcSecondsMs + this.lastOffset * 60_000);
  }

  /**
   * The instant's whole seconds since the epoch (NaN for text that is not an instant), its minute
   * entered into the cache and its canonical form in `lastCanonical`. Rows come sorted by time and
   * show each instant in several columns, so most instants fall in the cached minute: then the
   * minute's milliseconds plus the seconds digits are the same number `Date.UTC` gives (it adds
   * seconds as `s × 1000`), without a regex, six slices or a Date.
   */
  private locate(instant: string): number {
    if (this.lastMinute !== '' && instant.startsWith(this.lastMinute) && canonicalTail(instant)) {
      this.lastCanonical = instant;
      return this.lastMinuteMs + ((instant.charCodeAt(17) - 48) * 10 + instant.charCodeAt(18) - 48) * 1000;
    }
    const canonical = CANONICAL.test(instant) ? instant : toUtcInstant(instant);
    if (canonical === null) return NaN;
    this.lastCanonical = canonical;
    const seconds = Number(canonical.slice(17, 19));
    const utcSecondsMs = Date.UTC(
      Number(canonical.slice(0, 4)),
      Number(canonical.slice(5, 7)) - 1,
      Number(canonical.slice(8, 10)),
      Number(canonical.slice(11, 13)),
      Number(canonical.slice(14, 16)),
      seconds,
    );
    const minute = canonical.slice(0, 16);
    if (minute !== this.lastMinute) {
      // the offset of the first instant met in the minute, as before the minute was cached
      const offset = this.tz === 'UTC' ? 0 : tzOffset(this.tz, new Date(utcSecondsMs));
      // the offset text changes twice a year at most
      if (offset !== this.lastOffset || this.lastMinute === '') this.lastOffsetText = formatOffset(offset);
      this.lastOffset = offset;
      this.lastMinute = minute;
      this.lastMinuteMs = utcSecondsMs - seconds * 1000;
      this.lastLocalMinute = new Date(utcSecondsMs + offset * 60_000).toISOString().slice(0, 16);
      this.lastIsoInstant = '';
    }
    return utcSecondsMs;
  }
}

/** `:SS.ffffffZ` from index 16 on: with a canonical minute before it, the whole text is canonical (CANONICAL). */
function canonicalTail(text: string): boolean {
  if (text.length !== 27 || text.charCodeAt(16) !== 0x3a || text.charCodeAt(19) !== 0x2e || text.charCodeAt(26) !== 0x5a) return false;
  for (let i = 17; i < 26; i++) {
    if (i === 19) continue;
    const c = text.charCodeAt(i);
    if (c < 0x30 || c > 0x39) return false;
  }
  return true;
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
