/**
 * The replay of the movements before the window (docs/lots.md "The replay"). A first close, and
 * any run that starts more than a month after the last recorded close, replays history; it must
 * give what "close every earlier month, then this one" gives, byte for byte. Two things a chain
 * of closes does at each month's end are therefore done here too:
 *
 *   - each month's movements are turned into events on their own (events.ts): a treasury send
 *     pairs with a receive of its own month only, as a close that never saw the next month's
 *     receive would have it (a disposal there, an acquisition after);
 *   - at each month's end the lots are reseated as the close records them and the next run seeds
 *     them (Subledger.reseat).
 *
 * Months are calendar months in the reporting zone. A month that ends after the window's start is
 * not replayed on its own: its movements before the window belong to the window's run, as they do
 * for a run seeded from the previous month's close (an export from the 10th to the 20th).
 */
import { calendarDateIn, startOfDayIn } from '../model/period.js';
import type { Window } from '../model/window.js';
import { inOrder } from './event-order.js';
import { lotEvents, type Movement } from './events.js';
import { figureKey } from './period-run.js';
import type { Subledger } from './subledger.js';

export interface MonthBlock {
  /** YYYY-MM in the reporting zone */
  period: string;
  /** the month's end (its close's window end) */
  to: string;
  movements: Movement[];
}

/** What one replayed month realized, per figureKey (wallet|currency). */
export interface ReplayedMonth {
  period: string;
  to: string;
  realized: Map<string, bigint>;
}

/** The movements of whole months before the window, month by month, and the rest (the window's run). */
export function monthBlocks(movements: readonly Movement[], window: Window): { months: MonthBlock[]; rest: Movement[] } {
  const ends = new Map<string, string>();
  const months = new Map<string, MonthBlock>();
  const rest: Movement[] = [];
  for (const m of movements) {
    const at = m.entry.postedAt;
    if (at >= window.from) {
      rest.push(m);
      continue;
    }
    const local = calendarDateIn(new Date(`${at.slice(0, 23)}Z`), window.tz);
    const period = `${String(local.year).padStart(4, '0')}-${String(local.month).padStart(2, '0')}`;
    let to = ends.get(period);
    if (to === undefined) {
      to = startOfDayIn(local.month === 12 ? { year: local.year + 1, month: 1, day: 1 } : { year: local.year, month: local.month + 1, day: 1 }, window.tz);
      ends.set(period, to);
    }
    if (to > window.from) {
      rest.push(m);
      continue;
    }
    const block = months.get(period) ?? { period, to, movements: [] };
    block.movements.push(m);
    months.set(period, block);
  }
  return { months: [...months.values()].sort((a, b) => (a.to < b.to ? -1 : 1)), rest };
}

/** Applies each month in turn, reseating the lots at its end; returns what each realized. */
export function replayMonths(ledger: Subledger, months: readonly MonthBlock[]): ReplayedMonth[] {
  const out: ReplayedMonth[] = [];
  for (const month of months) {
    const realized = new Map<string, bigint>();
    for (const event of inOrder(lotEvents(month.movements).events)) {
      for (const r of ledger.apply(event).reliefs) {
        const key = figureKey(r.walletId, r.currency);
        realized.set(key, (realized.get(key) ?? 0n) + (r.gain ?? 0n));
      }
    }
    ledger.reseat();
    out.push({ period: month.period, to: month.to, realized });
  }
  return out;
}
