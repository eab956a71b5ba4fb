import { toUtcInstant } from '../../util/instant.js';

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

export function formatMicros(us: Micros): string {
  const ms = Math.floor(us / US_PER_MS);
  const base = new Date(ms).toISOString().slice(0, 19);
  const fraction = (us - Math.floor(us / US_PER_SECOND) * US_PER_SECOND).toString().padStart(6, '0').replace(/0+$/, '');
  return fraction === '' ? `${base}Z` : `${base}.${fraction}Z`;
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
