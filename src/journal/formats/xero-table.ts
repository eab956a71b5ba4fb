/**
 * Xero "Manual Journals → Import" CSV: the template's columns in order. Xero groups rows with the
 * same Narration and Date into one journal, so the Narration starts with the entry number;
 * Amount is positive for a debit and negative for a credit, and each journal nets to zero. The
 * tax rate (mandatory) comes from the config; dates are `dd MMM yyyy`, unambiguous in every region.
 */
import { decimal, text, type TableSpec } from '../../model/column-spec.js';
import { formatBase } from '../../money/format.js';
import { entryNumberOf } from '../entry-sequence.js';
import type { JournalEntry, JournalLine } from '../model.js';

export interface XeroRow {
  narration: string;
  date: string;
  description: string;
  accountCode: string;
  taxRate: string;
  amount: string;
}

export const XERO_TABLE: TableSpec<XeroRow> = {
  id: 'journal_xero',
  file: 'journal-xero.csv',
  sheet: 'none: CSV only',
  rowIs: 'one line of a manual journal, Xero import layout',
  columns: [
    text('*Narration', 'entry number and what the entry is; with the date it groups the journal', (r) => r.narration),
    text('*Date', 'dd MMM yyyy', (r) => r.date),
    text('Description', 'line memo', (r) => r.description),
    text('*AccountCode', 'Xero account code', (r) => r.accountCode),
    text('*TaxRate', 'tax rate name from the config', (r) => r.taxRate),
    decimal('*Amount', 'positive = debit, negative = credit', (r) => r.amount),
    text('TrackingName1', 'not set', () => null),
    text('TrackingOption1', 'not set', () => null),
    text('TrackingName2', 'not set', () => null),
    text('TrackingOption2', 'not set', () => null),
  ],
};

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

export function xeroRows(entry: JournalEntry, minorUnits: number, codeOf: (key: string) => string, taxRate: string): XeroRow[] {
  const [y, m, d] = entry.date.split('-');
  const date = `${d ?? ''} ${MONTHS[Number(m) - 1] ?? ''} ${y ?? ''}`;
  const narration = `${entryNumberOf(entry)} ${entry.narration}`;
  return entry.lines
    .filter((l): l is JournalLine & { amount: bigint } => l.amount !== null && l.amount > 0n)
    .map((l) => ({
      narration,
      date,
      description: l.memo,
      accountCode: codeOf(l.account),
      taxRate,
      amount: formatBase(l.side === 'debit' ? l.amount : -l.amount, minorUnits),
    }));
}
