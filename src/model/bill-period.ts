/**
 * Which report ties which of the service's bills, and which payments it needs for that
 * (docs/reconciliation.md "Bill checks"). A bill covers [start_time, end_time) in UTC — the
 * service's month or week — while a report covers the company's window in its own zone, so the
 * two rarely coincide. A bill is tied by the report whose window holds the larger part of its
 * period: the window holds the period's midpoint and at least half of it. Windows that partition
 * time (successive month-ends in one zone) hold each midpoint once, so each bill is tied exactly
 * once; a window shorter than half a period (a nightly's day against a week) ties none of the
 * bills that reach past it.
 *
 * The tie reads the wallet's payments over the whole period: those outside the report's window
 * are pulled and read beside it (`billPaymentRanges`), never added to the window's own files.
 */
import { toUtcInstant, type UtcInstant } from './instant.js';
import type { BillRecord, WalletRow } from './rows.js';

/** A half-open range of instants [from, to). */
export interface InstantRange {
  from: UtcInstant;
  to: UtcInstant;
}

interface BillPeriod {
  start_time: string;
  end_time: string;
}

/** Whether a report over `window` ties the bill of `period` (false for a period that cannot be read). */
export function tiesBill(window: InstantRange, period: BillPeriod): boolean {
  const start = microsOf(period.start_time);
  const end = microsOf(period.end_time);
  if (start === null || end === null || end <= start) return false;
  const from = microsOf(window.from) as bigint;
  const to = microsOf(window.to) as bigint;
  const midpoint = start + (end - start) / 2n;
  const held = (end < to ? end : to) - (start > from ? start : from);
  return from <= midpoint && midpoint < to && 2n * held >= end - start;
}

/** The instant in the middle of the period (the report whose window holds it ties the bill); null when unreadable. */
export function midpointOf(period: BillPeriod): UtcInstant | null {
  const start = microsOf(period.start_time);
  const end = microsOf(period.end_time);
  if (start === null || end === null || end <= start) return null;
  const midpoint = start + (end - start) / 2n;
  const seconds = new Date(Number(midpoint / 1_000_000n) * 1000).toISOString().slice(0, 19);
  return `${seconds}.${String(midpoint % 1_000_000n).padStart(6, '0')}Z`;
}

/** The parts of `range` outside `window`: none, one or two ranges, in time order. */
export function outsideOf(range: InstantRange, window: InstantRange): InstantRange[] {
  const out: InstantRange[] = [];
  if (range.from < window.from) out.push({ from: range.from, to: range.to < window.from ? range.to : window.from });
  if (range.to > window.to) out.push({ from: range.from > window.to ? range.from : window.to, to: range.to });
  return out;
}

/** Whether the bill charges the wallet: its line of credit's, or one the invoice lists. */
export function billCovers(record: BillRecord, wallet: Pick<WalletRow, 'wallet_id' | 'line_of_credit_id'>): boolean {
  return record.bill.line_of_credit_id === wallet.line_of_credit_id || record.line_items.some((item) => item.wallet_id === wallet.wallet_id);
}

/**
 * The creation ranges outside `window` whose payments of `wallet` the bills tied by `window` need:
 * each tied bill's period less the window, merged, in time order (each payment is read once).
 */
export function billPaymentRanges(window: InstantRange, bills: readonly BillRecord[], wallet: Pick<WalletRow, 'wallet_id' | 'line_of_credit_id'>): InstantRange[] {
  return mergeRanges(bills.filter((record) => billCovers(record, wallet) && tiesBill(window, record.bill)).flatMap((record) => outsideOf({ from: record.bill.start_time, to: record.bill.end_time }, window)));
}

/** Overlapping or touching ranges joined, in time order: what they cover, each instant once. */
export function mergeRanges(ranges: readonly InstantRange[]): InstantRange[] {
  const merged: InstantRange[] = [];
  for (const part of [...ranges].sort((a, b) => (a.from < b.from ? -1 : a.from > b.from ? 1 : 0))) {
    const last = merged.at(-1);
    if (last !== undefined && part.from <= last.to) last.to = part.to > last.to ? part.to : last.to;
    else merged.push({ ...part });
  }
  return merged;
}

/** Microseconds since the epoch of a canonical instant; null for anything else (a missing or malformed time). */
function microsOf(instant: string): bigint | null {
  if (toUtcInstant(instant) !== instant) return null;
  return BigInt(Date.parse(`${instant.slice(0, 19)}Z`)) * 1000n + BigInt(instant.slice(20, 26));
}
