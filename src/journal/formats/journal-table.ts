/**
 * journal.csv / sheet "Journal": the generic journal, one row per line, entry fields repeated on
 * every row so the file is flat and pivotable. Each line carries both the books-currency amount
 * and its exact source amount with the rate, its source and time — what an auditor asks for.
 */
import { formatBase } from '../../money/format.js';
import { amount, bool, code, date, decimal, id, instant, text, type TableSpec } from '../../model/column-spec.js';
import { entryNumberOf } from '../entry-sequence.js';
import type { JournalEntry, JournalLine } from '../model.js';

export interface JournalTableRow {
  entry: JournalEntry;
  line: JournalLine;
  lineNo: number;
  /** per-day-wallet mode: the summary entry this line rolls into */
  summaryNo: string | null;
  /** the line's account in the ledger naming */
  account: string;
  booksCurrency: string;
  minorUnits: number;
}

const fiat = (r: JournalTableRow, side: 'debit' | 'credit'): string | null => (r.line.side !== side || r.line.amount === null ? null : formatBase(r.line.amount, r.minorUnits));

export const JOURNAL_TABLE: TableSpec<JournalTableRow> = {
  id: 'journal',
  file: 'journal.csv',
  sheet: 'Journal',
  rowIs: 'one line of a journal entry (entries: one per wallet balance movement, plus period-end remeasurements)',
  // the data sheet printed one page across: the date, the number, the account and the amounts (src/sinks/print-fit.ts)
  printColumns: ['entry_date', 'entry_no', 'account', 'debit', 'credit', 'memo'],
  // what a reviewer prints: one landscape page wide, an entry's lines never split across pages (139 width units at 74 %)
  printView: {
    sheet: 'Journal (print)',
    columns: [
      { name: 'entry_date', label: 'date', width: 11, date: true },
      { name: 'entry_no', label: 'entry', width: 16 },
      { name: 'account', label: 'account', width: 34 },
      { name: 'debit', label: 'debit', width: 13, amount: true },
      { name: 'credit', label: 'credit', width: 13, amount: true },
      { name: 'memo', label: 'memo', width: 52 },
    ],
    keepTogether: 'entry_no',
  },
  columns: [
    { ...id('entry_no', 'the entry number: gapless per month of the entry date, in the order of this file (JE-2026-10-00001; JE-2026-10-L00001 for a late movement of a closed month; docs/journal.md)', (r) => entryNumberOf(r.entry)), width: 18 },
    id('entry_id', "the entry's internal id (prefix + hash of the payment and ledger entry, the same in every run); ≤ 21 characters", (r) => r.entry.entryNo),
    id('summary_entry_no', 'per-day-wallet mode: the daily summary entry this line is part of (JD-2026-10-00001; empty in per-payment mode)', (r) => r.summaryNo),
    code('entry_kind', 'movement or remeasurement', (r) => r.entry.kind),
    date('entry_date', "the entry's date in the reporting time zone", (r) => r.entry.date),
    ...instant<JournalTableRow>('posted_at', 'the ledger movement time (remeasurement: the window end)', (r) => r.entry.postedAt),
    id('wallet_id', 'wallet UUID', (r) => r.entry.walletId),
    id('payment_id', 'payment UUID (empty for deposits, withdrawals and remeasurements)', (r) => r.entry.paymentId),
    id('ledger_entry', 'the ledger movement posted: <entry_type>:<entry_id>', (r) => r.entry.ledgerRef),
    text('narration', 'what the entry is: rail, direction, payment, swap and rail details', (r) => r.entry.narration),
    { name: 'line_no', type: 'count', description: 'line number within the entry, from 1', get: (r) => r.lineNo },
    text('account', 'the account (ledger naming of the mapping)', (r) => r.account),
    code('component', 'wallet, principal, network_fee, processing_fee, rounding or remeasurement', (r) => r.line.component),
    code('side', 'debit or credit', (r) => r.line.side),
    decimal('debit', "debit in the books' currency (empty on credit lines and when the entry needs a price)", (r) => fiat(r, 'debit')),
    decimal('credit', "credit in the books' currency (empty on debit lines and when the entry needs a price)", (r) => fiat(r, 'credit')),
    code('books_currency', "ISO code of the books' currency", (r) => r.booksCurrency),
    code('source_currency', 'currency of the source amount: btc, usd or asset:<hex>', (r) => r.line.source?.currency ?? null),
    ...amount<JournalTableRow>('source_amount', 'the exact amount moved in the source currency (always ≥ 0; the side carries the sign)', (r) => r.line.source?.amount ?? null, (r) => r.line.source?.currency ?? null),
    decimal('rate', "books' currency per whole source unit, as applied (exact)", (r) => r.entry.valuation?.rate ?? null),
    code('rate_unit', 'what the rate is in: books currency / source unit, e.g. USD/BTC', (r) => r.entry.valuation?.unit ?? null),
    code('rate_source', 'native, payment_quote, price_file, or price_cache:<source>:<interval> (the price cache file used, docs/prices.md)', (r) => r.entry.valuation?.source ?? null),
    ...instant<JournalTableRow>('rate_at', "the rate's time (the price file row used, or the movement)", (r) => r.entry.valuation?.at ?? null),
    bool('needs_price', 'true: no price was found; the entry is left out of the Beancount, hledger, QuickBooks and Xero files', (r) => r.line.amount === null),
    text('memo', 'line memo: component and source amount, rate for the wallet line', (r) => r.line.memo),
  ],
};
