/**
 * What decides "the figures changed" for an exported entry (period-discipline.ts compares it with
 * the snapshot's record, src/model/journal-record.ts).
 */
import { createHash } from 'node:crypto';
import type { JournalEntry } from './model.js';

/** What decides "the figures changed": the date and every line's account, side, component, source and amount. */
export function contentHash(entry: JournalEntry): string {
  const lines = entry.lines.map((l) => [l.account, l.side, l.component, l.source?.currency ?? '', (l.source?.amount ?? '').toString(), (l.amount ?? '').toString()].join('|'));
  return createHash('sha256').update([entry.date, ...lines].join('\n'), 'utf8').digest('hex');
}
