/**
 * The entry numbers a person reads and an auditor tests for gaps (docs/journal.md "Entry numbers"):
 * per accounting month of the entry's date, one gapless sequence in the order the journal lists
 * its entries — `JE-2026-10-00001`, `JE-2026-10-00002`, … — so a re-run over the same snapshot
 * gives the same numbers. The hash id (entry-number.ts) stays the entry's internal id: the
 * closed-period record and the corrections are keyed by it.
 *
 * Three series, each gapless in its month:
 *   JE-YYYY-MM-NNNNN   the period's entries (journal.csv's entries: movements and remeasurements)
 *   JE-YYYY-MM-LNNNNN  entries of a closed month that its close never exported (late movements):
 *                      numbered apart, so the close's own numbers stay where they were
 *   JD-YYYY-MM-NNNNN   per-day-wallet mode: the daily summaries the ledger and ERP files post
 * A correction of an entry carries that entry's number and a suffix (`-R1`, `-C1`).
 */
import type { JournalEntry } from './model.js';

export type EntrySeries = 'period' | 'late' | 'summary';

/** Digits of the counter: five, more only past 99,999 entries in one month. */
const DIGITS = 5;

export class EntrySequence {
  private readonly counters = new Map<string, number>();

  /** The next number of `series` in the month of `date` (YYYY-MM-DD). */
  next(date: string, series: EntrySeries = 'period'): string {
    const month = date.slice(0, 7);
    const key = `${series}|${month}`;
    const n = (this.counters.get(key) ?? 0) + 1;
    this.counters.set(key, n);
    const digits = String(n).padStart(DIGITS, '0');
    if (series === 'summary') return `JD-${month}-${digits}`;
    return series === 'late' ? `JE-${month}-L${digits}` : `JE-${month}-${digits}`;
  }
}

/**
 * The entries posted for a listed entry, numbered after it: the entry itself (or its late, re-dated
 * copy) takes its number; a reversal or replacement (`<id>-R1`, `<id>-C1`) takes it with the suffix.
 */
export function numberPosted(listed: JournalEntry, number: string, posted: readonly JournalEntry[]): JournalEntry[] {
  return posted.map((p) => {
    if (p.entryNo === listed.entryNo) return { ...p, number };
    const suffix = p.entryNo.startsWith(`${listed.entryNo}-`) ? p.entryNo.slice(listed.entryNo.length) : '';
    return { ...p, number: `${number}${suffix}` };
  });
}

/** The number a person reads: the sequence number when the entry has one, else its internal id. */
export function entryNumberOf(entry: JournalEntry): string {
  return entry.number ?? entry.entryNo;
}
