/**
 * Period discipline: what a run may post given what earlier runs exported for closed periods.
 *
 *   already exported, same figures        → not emitted again
 *   already exported, figures changed     → a reversal of the exported lines (`<no>-R<n>`) and a
 *                                            replacement (`<no>-C<n>`), dated in the first open period
 *   not exported, in a closed period       → emitted once, dated in the first open period
 *   not exported, in an open period        → emitted as is
 *
 * Only a month-end run (which closes or amends its period) posts corrections and late entries,
 * and records them; an export or nightly run over a closed period leaves them to it.
 *
 * "Figures" are the content hash (content-hash.ts). A run that closes or amends a period stages
 * what it posts; the pipeline confirms it once the folder is published and the period closed, so
 * a failed run leaves nothing recorded.
 */
import type { UtcInstant } from '../model/rows.js';
import type { ZonedClock } from '../model/zoned-time.js';
import { localDate } from './build-movement.js';
import type { JournalExports } from '../model/journal-record.js';
import { contentHash } from './content-hash.js';
import { isValued, type JournalEntry } from './model.js';

export interface DisciplineOptions {
  exports: JournalExports;
  organizationId: string;
  runId: string;
  period: string;
  /** this run closes or amends the period: record what it posts */
  stage: boolean;
  /**
   * this run closes its period for the first time: its entries are the close's own, never late,
   * even when a later month was closed first (they may still be posted re-dated, as every entry
   * before the latest close is)
   */
  closes?: boolean;
}

export interface Resolved {
  /** the entries to post (none, the entry, a late entry re-dated, or a reversal and a replacement) */
  posted: JournalEntry[];
  /** posted entries that are corrections or late: never rolled into a daily summary */
  individual: boolean;
  /** effective in a closed period whose close never exported it: numbered apart (entry-sequence.ts) */
  late: boolean;
}

export class PeriodDiscipline {
  private firstOpen: UtcInstant | null = null;
  readonly counts = { unchanged: 0, corrected: 0, late: 0, deferred: 0, staged: 0 };

  private constructor(
    private readonly options: DisciplineOptions,
    private readonly clock: ZonedClock,
  ) {}

  static async open(options: DisciplineOptions, clock: ZonedClock): Promise<PeriodDiscipline> {
    const d = new PeriodDiscipline(options, clock);
    // only a recording run (month-end, one at a time per organization by its lock) clears what a failed one left
    if (options.stage) await options.exports.clearPending(options.organizationId);
    d.firstOpen = await options.exports.firstOpenInstant(options.organizationId);
    return d;
  }

  /** One wallet's entries (in order); stages what it posts when this run records. */
  async resolve(entries: readonly JournalEntry[]): Promise<Resolved[]> {
    const valued = entries.filter(isValued);
    const exported = await this.options.exports.find(this.options.organizationId, valued.map((e) => e.entryNo));
    const staged: Array<{ entry: JournalEntry; hash: string; corrections: number; late: boolean }> = [];
    const out = entries.map((entry): Resolved => {
      if (!isValued(entry)) return { posted: [entry], individual: false, late: false };
      const hash = contentHash(entry);
      const previous = exported.get(entry.entryNo);
      // a remeasurement is posted at its period's end, which is the next period's start
      const closed = this.firstOpen !== null && (entry.postedAt < this.firstOpen || (entry.kind === 'remeasurement' && entry.postedAt <= this.firstOpen));
      const openDate = this.firstOpen === null ? entry.date : localDate(this.clock, this.firstOpen);
      // late: numbered apart — for good, as the record says it was posted (a re-run keeps its number)
      const late = previous === undefined ? closed && this.options.closes !== true : previous.late === true;
      if (previous !== undefined && previous.contentHash === hash) {
        this.counts.unchanged += 1;
        return { posted: [], individual: true, late };
      }
      if (!this.options.stage && (previous !== undefined || closed)) {
        // a corrected or late entry of a closed period is the amending month-end's to post (and record)
        this.counts.deferred += 1;
        return { posted: [], individual: true, late };
      }
      if (previous !== undefined) {
        const n = previous.corrections + 1;
        const date = closed ? openDate : entry.date;
        this.counts.corrected += 1;
        staged.push({ entry, hash, corrections: n, late });
        const reversal: JournalEntry = {
          ...entry,
          entryNo: `${entry.entryNo}-R${n}`,
          date,
          narration: `reversal of ${entry.entryNo} as exported (figures changed after the close), ${entry.narration}`,
          valuation: null,
          lines: previous.lines.map((l) => ({ ...l, side: l.side === 'debit' ? 'credit' : 'debit', memo: `reversal: ${l.memo}` })),
        };
        const replacement: JournalEntry = { ...entry, entryNo: `${entry.entryNo}-C${n}`, date, narration: `replacement of ${entry.entryNo} (originally ${entry.date}), ${entry.narration}` };
        return { posted: [reversal, replacement], individual: true, late };
      }
      if (closed) {
        this.counts.late += 1;
        staged.push({ entry, hash, corrections: 0, late });
        return { posted: [{ ...entry, date: openDate, narration: `late movement of closed period (effective ${entry.date}), ${entry.narration}` }], individual: true, late };
      }
      if (this.options.stage) staged.push({ entry, hash, corrections: 0, late });
      return { posted: [entry], individual: false, late };
    });
    if (staged.length > 0) {
      await this.options.exports.stage(this.options.organizationId, this.options.runId, this.options.period, staged);
      this.counts.staged += staged.length;
    }
    return out;
  }
}
