/** `YYYY-MM-DDTHH:MM:SS.ffffffZ`: RFC 3339 in UTC with exactly six fraction digits (see rows.ts). */
export type UtcInstant = string;

/**
 * RFC 3339 → canonical UtcInstant (`YYYY-MM-DDTHH:MM:SS.ffffffZ`), exact to the microsecond.
 * The service sends `2025-02-12T21:22:50.30219Z`; JS Date would keep only milliseconds.
 * Returns null for anything that is not a valid RFC 3339 date-time with an offset.
 */
const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(Z|z|[+-]\d{2}:\d{2})$/;

export function toUtcInstant(text: string): UtcInstant | null {
  if (canonicalShape(text)) return canonicalInstant(text);
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

/** Where a canonical instant has a digit (`d`) and which character it has elsewhere. */
const CANONICAL_SHAPE = 'dddd-dd-ddTdd:dd:dd.ddddddZ';

/** `YYYY-MM-DDTHH:MM:SS.ffffffZ` with digits where digits go (the fields are not checked: see canonicalInstant). */
export function canonicalShape(text: string): boolean {
  if (text.length !== CANONICAL_SHAPE.length) return false;
  for (let i = 0; i < text.length; i++) {
    const want = CANONICAL_SHAPE.charCodeAt(i);
    const c = text.charCodeAt(i);
    if (want === 0x64 ? c < 0x30 || c > 0x39 : c !== want) return false;
  }
  return true;
}

/**
 * Text already in canonical form (what the store, the spool and every row hold) is its own answer
 * when its fields make a date: the checks below (Date.UTC reads years 0-99 as 19xx, so those fail
 * them), done on the digits without the regex, its match array and two Dates.
 */
function canonicalInstant(text: string): UtcInstant | null {
  const y = digits2(text, 0) * 100 + digits2(text, 2);
  const mo = digits2(text, 5);
  const d = digits2(text, 8);
  if (y < 100 || mo < 1 || mo > 12 || d < 1 || d > daysInMonth(y, mo)) return null;
  if (digits2(text, 11) > 23 || digits2(text, 14) > 59 || digits2(text, 17) > 59) return null;
  return text;
}

function digits2(text: string, at: number): number {
  return (text.charCodeAt(at) - 48) * 10 + text.charCodeAt(at + 1) - 48;
}

/** Days of a month in the proleptic Gregorian calendar, as JS Date counts them. */
function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/** A Date (millisecond precision) as a UtcInstant. */
export function instantFromDate(date: Date): UtcInstant {
  return `${date.toISOString().slice(0, 23)}000Z`;
}

/** A UtcInstant as a Date (drops sub-millisecond digits: use only for display and arithmetic on windows). */
export function dateFromInstant(instant: UtcInstant): Date {
  return new Date(instant.slice(0, 23) + 'Z');
}
