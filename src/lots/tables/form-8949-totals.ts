/**
 * form-8949-totals.csv / sheet "Form 8949 totals": per tax year, part and box, the totals of
 * columns (d), (e), (g) and (h) — Form 8949's line 2 — and the Schedule D line they are included
 * on (docs/tax.md "Totals"). A figure is empty when one of its lines' is unknown, and `complete`
 * says so.
 */
import { bool, code, count, decimal, text, type TableSpec } from '../../model/column-spec.js';
import { BOX_TEXT } from '../tax/boxes.js';
import type { BoxTotal } from '../tax/form-8949-totals.js';
import { money } from '../tax/form-8949-lines.js';

export interface BoxTotalRow {
  total: BoxTotal;
  minorUnits: number;
}

export const FORM_8949_TOTALS_TABLE: TableSpec<BoxTotalRow> = {
  id: 'form_8949_totals',
  file: 'form-8949-totals.csv',
  sheet: 'Form 8949 totals',
  rowIs: "Form 8949 box of the window: its line 2 totals and the Schedule D line they go to (docs/tax.md)",
  // printed one page across (docs/reports.md#printing-8-pt-or-more-on-a4-and-letter): the box, its line 2 totals and whether it is complete
  printColumns: ['box', 'box_text', 'lines', 'proceeds', 'cost_basis', 'adjustments', 'gain', 'complete'],
  columns: [
    count('tax_year', "the disposals' tax year", (r) => r.total.taxYear),
    code('part', 'I (short term) or II (long term)', (r) => r.total.part),
    code('box', 'the Form 8949 box checked on this part', (r) => r.total.box),
    text('box_text', 'what the box is for, as Form 8949 (2025) prints it', (r) => BOX_TEXT[r.total.box]),
    code('schedule_d_line', 'the Schedule D line these totals are included on (1b, 2, 3, 8b, 9, 10)', (r) => r.total.scheduleDLine),
    count('lines', 'Form 8949 lines (form-8949.csv rows) in the box', (r) => r.total.lines),
    decimal('proceeds', 'Σ (d); empty = a line needs a price', (r) => money(r.total.proceeds, r.minorUnits)),
    decimal('cost_basis', 'Σ (e); empty = a line has an unknown basis', (r) => money(r.total.cost, r.minorUnits)),
    decimal('adjustments', 'Σ (g)', (r) => money(r.total.adjustment, r.minorUnits)),
    decimal('gain', 'Σ (h) = proceeds − cost_basis + adjustments; negative = a loss', (r) => money(r.total.gain, r.minorUnits)),
    bool('complete', 'every figure of every line is known: the totals can be carried to Schedule D', (r) => r.total.proceeds !== null && r.total.cost !== null && r.total.gain !== null),
  ],
};
