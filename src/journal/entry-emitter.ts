/**
 * How one holder's built entries reach the files: the closed periods' discipline decides what is
 * posted (period-discipline.ts), each entry gets its gapless number in the order journal.csv lists
 * it (entry-sequence.ts), journal.csv gets every entry as it stands, and the ledger and ERP files the
 * posted ones — per payment, or rolled into daily summaries (per-day-wallet.ts).
 */
import type { JournalConfig } from '../config/journal-schema.js';
import { EntrySequence, numberPosted } from './entry-sequence.js';
import type { JournalWriters } from './journal-writers.js';
import type { JournalEntry } from './model.js';
import { DayWalletGrouper } from './per-day-wallet.js';
import type { PeriodDiscipline, Resolved } from './period-discipline.js';

export class EntryEmitter {
  private readonly sequence = new EntrySequence();
  private readonly grouper: DayWalletGrouper | null;

  constructor(
    config: JournalConfig,
    private readonly writers: JournalWriters,
    private readonly discipline: PeriodDiscipline | null,
  ) {
    this.grouper = config.entryMode === 'per-day-wallet' ? new DayWalletGrouper(config.numberPrefix, this.sequence) : null;
  }

  /** One holder's entries, in order (a wallet's movements, then its remeasurements). */
  async emit(entries: readonly JournalEntry[]): Promise<void> {
    const resolved: Resolved[] = this.discipline === null ? entries.map((entry) => ({ posted: [entry], individual: false, late: false })) : await this.discipline.resolve(entries);
    for (const [i, built] of entries.entries()) {
      const r = resolved[i] as Resolved;
      const number = this.sequence.next(built.date, r.late ? 'late' : 'period');
      const entry: JournalEntry = { ...built, number };
      const summaryNo = this.grouper !== null && !r.individual && entry.kind === 'movement' ? this.grouper.summaryNo(entry) : null;
      // journal.csv is the period's journal as it stands; corrections go to the import files only
      await this.writers.detail(entry, summaryNo);
      for (const posted of numberPosted(entry, number, r.posted)) await this.post(posted, r.individual);
    }
    // a daily summary never spans two holders
    const last = this.grouper?.flush() ?? null;
    if (last !== null) await this.writers.posted(last);
  }

  private async post(entry: JournalEntry, individual: boolean): Promise<void> {
    if (this.grouper === null || individual || entry.kind === 'remeasurement') {
      await this.writers.posted(entry);
      return;
    }
    const done = this.grouper.add(entry);
    if (done !== null) await this.writers.posted(done);
  }
}
