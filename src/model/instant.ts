/** `YYYY-MM-DDTHH:MM:SS.ffffffZ`: RFC 3339 in UTC with exactly six fraction digits (see rows.ts). */
export type UtcInstant = string;

/**
 * RFC 3339 → canonical UtcInstant (`YYYY-MM-DDTHH:MM:SS.ffffffZ`), exact to the microsecond.
 * The service sends `2025-02-12T21:22:50.30219Z`; JS Date would keep only milliseconds.
 * Returns null for anything that is not a valid RFC 3339 date-time with an offset.
 */
const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(Z|z|[+-]\d{2}:\d{2})$/;

export function toUtcInstant(text: string): UtcInstant | null {
  const m = RFC3339.exec(text);
  if (!m) return null;
  const [, y, mo, d, h, mi, s, frac = '', zone] = m as unknown as [string, string, string, string, string, string, string, string | undefined, string];
  const micros = (frac + '000000').slice(0, 6);
  // Validate the calendar fields and apply the offset with whole-second Date arithmetic
  // (exact), then re-attach the microseconds, which no offset can change.
  const secondsUtc = Date.UTC(+y, +mo - 1, +d, +h, +mi, +s);
  const check = new Date(secondsUtc);
  if (check.getUTCFullYear() !== +y || check.getUTCMonth() !== +mo - 1 || check.getUTCDate() !== +d || +h > 23 || +mi > 59 || +s > 59) {
    return null;
  }
  let offsetMinutes = 0;
  if (zone !== 'Z' && zone !== 'z') {
    const sign = zone.startsWith('-') ? -1 : 1;
    offsetMinutes = sign * (Number(zone.slice(1, 3)) * 60 + Number(zone.slice(4, 6)));
  }
  const utc = new Date(secondsUtc - offsetMinutes * 60_000);
  return `${utc.toISOString().slice(0, 19)}.${micros}Z`;
}

/** A Date (millisecond precision) as a UtcInstant. */
export function instantFromDate(date: Date): UtcInstant {
  return `${date.toISOString().slice(0, 23)}000Z`;
}

/** A UtcInstant as a Date (drops sub-millisecond digits: use only for display and arithmetic on windows). */
export function dateFromInstant(instant: UtcInstant): Date {
  return new Date(instant.slice(0, 23) + 'Z');
}
