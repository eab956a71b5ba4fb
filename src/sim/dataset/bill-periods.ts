import { uuidOf } from '../core/ids.js';
import { hashString } from '../core/prng.js';
import { US_PER_DAY, US_PER_MS, type Micros } from '../core/time.js';
import type { SimLineOfCredit, World } from './world.js';

/**
 * The billing periods of a line of credit: calendar months (UTC) or weeks from Monday 00:00 UTC,
 * alternating by index with the parity flipped for USD, so that with the default environments each
 * environment and each currency has both a monthly and a weekly line of credit. A period is billed when it
 * overlaps the dataset's range and has ended by the range's end (a bill is issued after its period).
 */
export type PeriodLength = 'monthly' | 'weekly';

export interface BillPeriod {
  billId: string;
  lineOfCreditIndex: number;
  length: PeriodLength;
  startUs: Micros;
  /** exclusive */
  endUs: Micros;
  /**
   * issued by the older billing that kept no payment categories: its invoice has no
   * payment_activity (the period ended within the dataset's first 8 days)
   */
  historical: boolean;
}

const NS_BILL = hashString('bill');
/** 1970-01-05 was a Monday. */
const FIRST_MONDAY_US = 4 * US_PER_DAY;
const WEEK_US = 7 * US_PER_DAY;
export const HISTORICAL_CUTOVER_US = 8 * US_PER_DAY;

export function periodLengthOf(loc: SimLineOfCredit): PeriodLength {
  return (loc.index + (loc.currency === 'usd' ? 1 : 0)) % 2 === 0 ? 'monthly' : 'weekly';
}

function monthStartUs(year: number, month: number): Micros {
  return Date.UTC(year, month, 1) * US_PER_MS;
}

export function billPeriods(world: World, loc: SimLineOfCredit): BillPeriod[] {
  const length = periodLengthOf(loc);
  const out: BillPeriod[] = [];
  const push = (key: number, startUs: Micros, endUs: Micros): void => {
    if (endUs <= world.fromUs || endUs > world.toUs) return;
    out.push({ billId: uuidOf(world.seed, NS_BILL, loc.index, key), lineOfCreditIndex: loc.index, length, startUs, endUs, historical: endUs <= world.fromUs + HISTORICAL_CUTOVER_US });
  };
  if (length === 'weekly') {
    let week = Math.floor((world.fromUs - FIRST_MONDAY_US) / WEEK_US);
    for (let start = FIRST_MONDAY_US + week * WEEK_US; start < world.toUs; start += WEEK_US, week++) push(week + 1, start, start + WEEK_US);
  } else {
    const from = new Date(world.fromUs / US_PER_MS);
    let year = from.getUTCFullYear();
    let month = from.getUTCMonth();
    for (let start = monthStartUs(year, month); start < world.toUs; ) {
      const nextYear = month === 11 ? year + 1 : year;
      const nextMonth = (month + 1) % 12;
      const end = monthStartUs(nextYear, nextMonth);
      push(-(year * 12 + month + 1), start, end);
      [year, month, start] = [nextYear, nextMonth, end];
    }
  }
  return out;
}

/** Every billed period of the world, by line of credit then start. */
export function allBillPeriods(world: World): BillPeriod[] {
  return world.linesOfCredit.flatMap((loc) => billPeriods(world, loc));
}

/** The period lies inside the dataset and inside one calendar month (UTC): a month-end sees all of it. */
export function insideOneMonth(world: World, p: BillPeriod): boolean {
  if (p.startUs < world.fromUs) return false;
  const a = new Date(p.startUs / US_PER_MS);
  const b = new Date((p.endUs - 1) / US_PER_MS);
  return a.getUTCFullYear() === b.getUTCFullYear() && a.getUTCMonth() === b.getUTCMonth();
}
