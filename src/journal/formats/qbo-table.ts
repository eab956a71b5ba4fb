/**
 * QuickBooks Online "Import journal entries" CSV: the columns of Intuit's template. Lines of one
 * entry share its Journal No. (≤ 21 characters) and Journal Date (MM/DD/YYYY, US companies);
 * each line has a positive Debits or Credits, never both. Amounts are in the home currency only
 * (QuickBooks' importer does not import foreign-currency journals): the source amount, rate and
 * time are in the Description. Zero lines are left out (QuickBooks refuses a line with neither).
 */
import { decimal, text, type TableSpec } from '../../model/column-spec.js';
import { formatBase } from '../../money/format.js';
import { entryNumberOf } from '../entry-sequence.js';
import type { JournalEntry, JournalLine } from '../model.js';

export interface QboRow {
  journalNo: string;
  date: string;
  account: string;
  debit: string | null;
  credit: string | null;
  description: string;
}

export const QBO_TABLE: TableSpec<QboRow> = {
  id: 'journal_qbo',
  file: 'journal-qbo.csv',
  sheet: 'none: CSV only',
  rowIs: 'one line of a journal entry, QuickBooks Online import layout',
  columns: [
    text('Journal No.', 'entry number, ≤ 21 characters; groups the lines of one entry', (r) => r.journalNo),
    text('Journal Date', 'MM/DD/YYYY; one date per entry', (r) => r.date),
    text('Account Name', 'QuickBooks account name (Parent:Sub)', (r) => r.account),
    decimal('Debits', 'positive, or empty', (r) => r.debit),
    decimal('Credits', 'positive, or empty', (r) => r.credit),
    text('Description', 'line memo with the source amount and rate', (r) => r.description),
    text('Name', 'customer/vendor: not set (the mapping avoids A/R and A/P accounts)', () => null),
  ],
};

export function qboRows(entry: JournalEntry, minorUnits: number, nameOf: (key: string) => string): QboRow[] {
  const [y, m, d] = entry.date.split('-');
  const date = `${m ?? ''}/${d ?? ''}/${y ?? ''}`;
  return entry.lines
    .filter((l): l is JournalLine & { amount: bigint } => l.amount !== null && l.amount > 0n)
    .map((l) => ({
      journalNo: entryNumberOf(entry),
      date,
      account: nameOf(l.account),
      debit: l.side === 'debit' ? formatBase(l.amount, minorUnits) : null,
      credit: l.side === 'credit' ? formatBase(l.amount, minorUnits) : null,
      description: `${l.memo}; ${entry.narration}`,
    }));
}
