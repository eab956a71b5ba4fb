/**
 * Entry mode `per-day-wallet`: one summary entry per wallet and books-local day, its lines the
 * sums per (account, side, component) of that day's movement entries. The movement entries are
 * rounded first and the summary adds rounded amounts, so the detail (journal.csv) ties to the
 * summary exactly, to the minor unit, and each summary balances because each detail entry does.
 * A day with any movement that needs a price needs a price as a whole.
 */
import { entryNumber } from './entry-number.js';
import { EntrySequence } from './entry-sequence.js';
import type { JournalEntry, JournalLine } from './model.js';

export class DayWalletGrouper {
  private current: { walletId: string; date: string; entries: number; lines: Map<string, JournalLine>; valued: boolean; first: JournalEntry } | null = null;
  /** each wallet's day numbered when first met: the summaries' gapless series (entry-sequence.ts) */
  private readonly numbers = new Map<string, string>();

  constructor(
    private readonly prefix: string,
    private readonly sequence: EntrySequence = new EntrySequence(),
  ) {}

  /** The summary's internal id (the hash of its wallet and day). */
  summaryId(entry: JournalEntry): string {
    return entryNumber(this.prefix, `day|${entry.walletId}|${entry.date}`);
  }

  /** The summary number the detail entry will roll into. */
  summaryNo(entry: JournalEntry): string {
    const key = `${entry.walletId}|${entry.date}`;
    let number = this.numbers.get(key);
    if (number === undefined) {
      number = this.sequence.next(entry.date, 'summary');
      this.numbers.set(key, number);
    }
    return number;
  }

  /** Adds a movement entry; returns the previous day's summary when the day or wallet changes. */
  add(entry: JournalEntry): JournalEntry | null {
    let done: JournalEntry | null = null;
    if (this.current !== null && (this.current.walletId !== entry.walletId || this.current.date !== entry.date)) done = this.flush();
    if (this.current === null) this.current = { walletId: entry.walletId, date: entry.date, entries: 0, lines: new Map(), valued: true, first: entry };
    const c = this.current;
    c.entries += 1;
    for (const line of entry.lines) {
      if (line.amount === null) c.valued = false;
      const key = `${line.account}|${line.side}|${line.component}|${line.source?.currency ?? ''}`;
      const sum = c.lines.get(key);
      if (sum === undefined) {
        c.lines.set(key, { ...line, source: line.source === null ? null : { ...line.source }, memo: line.component });
      } else {
        if (sum.source !== null && line.source !== null) sum.source.amount += line.source.amount;
        sum.amount = sum.amount === null || line.amount === null ? null : sum.amount + line.amount;
      }
    }
    return done;
  }

  /** The open day's summary, if any. */
  flush(): JournalEntry | null {
    const c = this.current;
    if (c === null) return null;
    this.current = null;
    const lines = [...c.lines.values()].map((l) => (c.valued ? l : { ...l, amount: null }));
    return {
      entryNo: this.summaryId(c.first),
      number: this.summaryNo(c.first),
      kind: 'movement',
      date: c.date,
      postedAt: c.first.postedAt,
      walletId: c.walletId,
      paymentId: null,
      ledgerRef: null,
      narration: `${c.entries} movement(s) of wallet ${c.walletId} on ${c.date}; detail in journal.csv`,
      valuation: null,
      lines,
    };
  }
}
