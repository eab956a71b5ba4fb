/**
 * form-1099-da-reconciliation.csv / sheet "Form 1099-DA": the brokers' Forms 1099-DA beside the
 * disposals they report (docs/tax.md "Forms 1099-DA") — one row per form dated in the window (or a
 * day either side, when it matched), and one per disposal of a wallet whose forms were read that no
 * form reports. Written when `lots.tax.forms1099DA` names a file.
 */
import { formatBase } from '../../money/format.js';
import { bool, code, decimal, id, list, text, type TableSpec } from '../../model/column-spec.js';
import { costOf, proceedsOf } from '../tax/form-1099da-match.js';
import type { ReconciliationRow } from '../tax/form-1099da-reconcile.js';

export interface ReconciliationTableRow {
  rec: ReconciliationRow;
  minorUnits: number;
  /** the books' units of the reported lines, as the asset writes them */
  unitsText: string | null;
  /** the boxes the lines went to */
  boxes: readonly string[];
}

const money = (v: bigint | null | undefined, scale: number): string | null => (v === null || v === undefined ? null : formatBase(v, scale));
const usDay = (day: string | null | undefined): string | null => (day === null || day === undefined ? null : `${day.slice(5, 7)}/${day.slice(8, 10)}/${day.slice(0, 4)}`);

export const FORM_1099DA_RECONCILIATION_TABLE: TableSpec<ReconciliationTableRow> = {
  id: 'form_1099da_reconciliation',
  file: 'form-1099-da-reconciliation.csv',
  sheet: 'Form 1099-DA',
  rowIs: 'Form 1099-DA of a broker and the disposal it reports, or a disposal no form reports (docs/tax.md)',
  // printed one page across (docs/reports.md#printing-8-pt-or-more-on-a4-and-letter): the broker's form beside the books and what differs
  printColumns: ['status', 'broker', 'box_1e_date_sold', 'box_1f_proceeds', 'books_proceeds', 'differences'],
  columns: [
    code('status', 'matched, differs (matched with differences), unmatched (no disposal: an error), duplicate, or not_reported (a disposal no form reports: box I or L)', (r) => r.rec.status),
    list('differences', 'what differs: proceeds, basis, date, term', (r) => r.rec.differences),
    text('broker', 'the broker (lots.tax.forms1099DA)', (r) => r.rec.broker),
    code('file_line', "the form's line in the broker's file", (r) => (r.rec.row === null ? null : String(r.rec.row.line))),
    text('transaction_id', "the broker's transaction id, when given", (r) => r.rec.row?.transactionId ?? null),
    text('box_1b_name', 'name of the digital asset', (r) => r.rec.row?.name ?? null),
    code('box_1c_units', 'number of units, as the form gives it', (r) => r.rec.row?.units ?? null),
    code('box_1e_date_sold', 'date sold or disposed, MM/DD/YYYY', (r) => usDay(r.rec.row?.sold)),
    decimal('box_1f_proceeds', 'proceeds', (r) => money(r.rec.row?.proceeds, r.minorUnits)),
    decimal('box_1g_cost_basis', 'cost or other basis; empty = not shown', (r) => money(r.rec.row?.basis, r.minorUnits)),
    bool('box_2_basis_reported', 'basis reported to the IRS (box 2, or the applicable checkbox G or J)', (r) => (r.rec.row === null ? null : r.rec.row.basisReported || r.rec.row.checkbox === 'G' || r.rec.row.checkbox === 'J')),
    code('form_term', 'box 6 (or the applicable checkbox): short, long or ordinary', (r) => r.rec.row?.term ?? (r.rec.row?.checkbox === 'G' || r.rec.row?.checkbox === 'H' ? 'short' : r.rec.row?.checkbox === 'J' || r.rec.row?.checkbox === 'K' ? 'long' : null)),
    id('wallet_id', 'the wallet of the disposal', (r) => r.rec.disposal?.walletId ?? null),
    id('disposal_ref', 'the disposal (ledger movement) the form reports', (r) => r.rec.disposal?.ref ?? null),
    code('books_units', "the units of the reported legs in the books: the principal's, or all legs'", (r) => r.unitsText),
    code('books_date_sold', "the disposal's date in the reporting zone, MM/DD/YYYY", (r) => usDay(r.rec.disposal?.day)),
    decimal('books_proceeds', 'the proceeds of the reported legs in the books', (r) => (r.rec.lines.length === 0 ? null : money(proceedsOf(r.rec.lines), r.minorUnits))),
    decimal('books_cost_basis', 'the cost of the reported lots in the books', (r) => (r.rec.lines.length === 0 ? null : money(costOf(r.rec.lines), r.minorUnits))),
    list('boxes', 'the Form 8949 boxes its lines went to', (r) => r.boxes),
  ],
};
