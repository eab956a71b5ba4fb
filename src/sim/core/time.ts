import { toUtcInstant } from '../../model/instant.js';

/**
 * Instants inside the simulator are integer MICROseconds since the epoch held in a float64
 * (exact up to 2^53 µs ≈ year 2255). The service sends RFC 3339 with up to six fraction digits
 * and trims trailing zeros (`2025-02-12T21:22:50.30219Z`), so we do too.
 */
export type Micros = number;

export const US_PER_MS = 1_000;
export const US_PER_SECOND = 1_000_000;
export const US_PER_MINUTE = 60 * US_PER_SECOND;
export const US_PER_HOUR = 60 * US_PER_MINUTE;
export const US_PER_DAY = 24 * US_PER_HOUR;

let cachedDay = Number.NaN;
let cachedDayPrefix = '';
const TWO_DIGITS = Array.from({ length: 60 }, (_, n) => String(n).padStart(2, '0'));

export function formatMicros(us: Micros): string {
  // hot path (every timestamp of every page): the date part is cached per day, the rest is integer math
  const seconds = Math.floor(us / US_PER_SECOND);
  const micros = us - seconds * US_PER_SECOND;
  const day = Math.floor(seconds / 86_400);
  if (day !== cachedDay) {
    cachedDay = day;
    cachedDayPrefix = new Date(day * 86_400_000).toISOString().slice(0, 11);
  }
  const sod = seconds - day * 86_400;
  const hms = `${cachedDayPrefix}${TWO_DIGITS[Math.floor(sod / 3600)]}:${TWO_DIGITS[Math.floor(sod / 60) % 60]}:${TWO_DIGITS[sod % 60]}`;
  if (micros === 0) return `${hms}Z`;
  return `${hms}.${String(micros).padStart(6, '0').replace(/0+$/, '')}Z`;
}

/** RFC 3339 (any offset) → µs, or null when invalid. */
export function parseMicros(text: string): Micros | null {
  const canonical = toUtcInstant(text);
  if (canonical === null) return null;
  const seconds = Date.parse(`${canonical.slice(0, 19)}Z`) / 1000;
  return seconds * US_PER_SECOND + Number(canonical.slice(20, 26));
}

/** `YYYY-MM-DD` (UTC midnight) or a full RFC 3339 instant → µs; throws on anything else. */
export function microsOfDateOrInstant(text: string): Micros {
  const us = /^\d{4}-\d{2}-\d{2}$/.test(text) ? parseMicros(`${text}T00:00:00Z`) : parseMicros(text);
  if (us === null) throw new RangeError(`not a date or RFC 3339 instant: ${JSON.stringify(text)}`);
  return us;
}

export function nowMicros(): Micros {
  return Date.now() * US_PER_MS;
}
