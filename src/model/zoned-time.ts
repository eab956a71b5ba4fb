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
import type { UtcInstant } from './rows.js';
import { canonicalShape, toUtcInstant } from './instant.js';
import { usageError } from '../util/errors.js';

/** what fork() passes: the zone was checked when the first clock of it was made */
const VALIDATED: unique symbol = Symbol('validated time zone');
/** minutes a clock family keeps (a few hundred KB at most) */
const MAX_CACHED_MINUTES = 4096;

/** A UTC minute in the zone: its offset, and its wall-clock text (`YYYY-MM-DDTHH:MM`, '' until needed). */
interface ZonedMinute {
  readonly offset: number;
  local: string;
}

/** UTC needs no map: every minute's offset is 0 and its text its own (never stored here). */
const UTC_MINUTE: ZonedMinute = Object.freeze({ offset: 0, local: '' }) as ZonedMinute;

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

  /**
   * The offset of each UTC minute met, shared by a clock and its forks: a row's instants (created,
   * updated, settled; a ledger entry's effective time) mostly fall in a few minutes, each column's
   * clock meets them in turn, and outside UTC each new minute is an Intl call.
   */
  private readonly minutes: Map<string, ZonedMinute>;
  /** the cached minute's entry (its local text filled the first time `iso` needs it) */
  private lastEntry: ZonedMinute = { offset: 0, local: '' };

  constructor(tz: string, validated?: typeof VALIDATED, minutes?: Map<string, ZonedMinute>) {
    if (validated !== VALIDATED && !isValidTimeZone(tz)) throw usageError('bad_time_zone', `unknown time zone "${tz}" (use an IANA name such as Europe/Berlin, or UTC)`);
    this.minutes = minutes ?? new Map();
    this.tz = tz;
  }

  /**
   * A clock of the same zone with caches of its own: a row shows several instants (created, updated,
   * settled), each its own minute, so one shared cache missed at nearly every cell; a column's
   * instants, rows coming in time order, mostly share their minute.
   */
  fork(): ZonedClock {
    return new ZonedClock(this.tz, VALIDATED, this.minutes);
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
    // in UTC the zone's minute is the instant's own (no Date to format)
    if (this.lastLocalMinute === '') {
      // in UTC the zone's minute is the instant's own; elsewhere it is made once per minute for the family
      if (this.lastOffset === 0) this.lastLocalMinute = this.lastMinute;
      else {
        const entry = this.lastEntry;
        if (entry.local === '') entry.local = new Date(this.lastMinuteMs + this.lastOffset * 60_000).toISOString().slice(0, 16);
        this.lastLocalMinute = entry.local;
      }
    }
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

  /** The UTC minute `minute` in the zone (an instant of it: `utcMs`), from the family's map or Intl. */
  private minuteEntry(minute: string, utcMs: number): ZonedMinute {
    let entry = this.minutes.get(minute);
    if (entry === undefined) {
      entry = { offset: this.tz === 'UTC' ? 0 : tzOffset(this.tz, new Date(utcMs)), local: '' };
      // a bound, not an eviction policy: rows come in time order, so old minutes are not met again
      if (this.minutes.size >= MAX_CACHED_MINUTES) this.minutes.clear();
      this.minutes.set(minute, entry);
    }
    return entry;
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
    // the digits read as numbers without a regex or a slice: at a new minute on most rows (rows of
    // one wallet are minutes apart), this was most of the rendering of a date cell
    const canonical = canonicalShape(instant) ? instant : toUtcInstant(instant);
    if (canonical === null) return NaN;
    this.lastCanonical = canonical;
    const seconds = digits(canonical, 17, 2);
    const utcSecondsMs = Date.UTC(digits(canonical, 0, 4), digits(canonical, 5, 2) - 1, digits(canonical, 8, 2), digits(canonical, 11, 2), digits(canonical, 14, 2), seconds);
    const minute = canonical.slice(0, 16);
    if (minute !== this.lastMinute) {
      // the offset of the first instant met in the minute, as before the minute was cached
      const entry = this.tz === 'UTC' ? UTC_MINUTE : this.minuteEntry(minute, utcSecondsMs);
      const offset = entry.offset;
      this.lastEntry = entry;
      // the offset text changes twice a year at most
      if (offset !== this.lastOffset || this.lastMinute === '') this.lastOffsetText = formatOffset(offset);
      this.lastOffset = offset;
      this.lastMinute = minute;
      this.lastMinuteMs = utcSecondsMs - seconds * 1000;
      // made by `iso` when it needs it: a date cell of the workbook does not
      this.lastLocalMinute = '';
      this.lastIsoInstant = '';
    }
    return utcSecondsMs;
  }
}

/** The number the `count` ASCII digits from `at` spell (the caller checked they are digits). */
function digits(text: string, at: number, count: number): number {
  let n = 0;
  for (let i = at; i < at + count; i++) n = n * 10 + text.charCodeAt(i) - 48;
  return n;
}

/** `:SS.ffffffZ` from index 16 on: with a canonical minute before it, the whole text is canonical (model/instant.ts canonicalShape). */
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
