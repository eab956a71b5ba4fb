/**
 * form-8949.csv: IRS Form 8949 rows, one per relief line (not aggregated: each line is one lot and
 * one leg, so a preparer can trace it to lot-reliefs.csv), Part I (short term) first, then Part II
 * (long term). Columns (a)–(h) as the form names them; dates MM/DD/YYYY in the reporting zone.
 * Column (f) and (g) stay empty: the subledger makes no adjustments. Box C / F (no 1099-B/DA
 * reported basis) is the preparer's choice and not set here.
 */
import { formatBase } from '../../money/format.js';
import { code, decimal, text, type TableSpec } from '../../model/column-spec.js';

export interface Form8949Row {
  part: 'I' | 'II';
  description: string;
  acquired: string;
  sold: string;
  proceeds: bigint | null;
  cost: bigint | null;
  gain: bigint | null;
  minorUnits: number;
}

const money = (v: bigint | null, scale: number): string | null => (v === null ? null : formatBase(v, scale));

export const FORM_8949_TABLE: TableSpec<Form8949Row> = {
  id: 'form_8949',
  file: 'form-8949.csv',
  sheet: 'none: CSV only',
  rowIs: 'Form 8949 line: one relief line of the window (Part I short term, then Part II long term)',
  columns: [
    code('part', 'I (short term, held one year or less) or II (long term)', (r) => r.part),
    text('(a) Description of property', 'units and currency, wallet and disposal', (r) => r.description),
    code('(b) Date acquired', 'MM/DD/YYYY', (r) => r.acquired),
    code('(c) Date sold or disposed of', 'MM/DD/YYYY', (r) => r.sold),
    decimal('(d) Proceeds', "in the books' currency", (r) => money(r.proceeds, r.minorUnits)),
    decimal('(e) Cost or other basis', "in the books' currency; empty = unknown basis (lots.basis_unknown)", (r) => money(r.cost, r.minorUnits)),
    code('(f) Code(s)', 'adjustment codes: none', () => null),
    decimal('(g) Amount of adjustment', 'none', () => null),
    decimal('(h) Gain or (loss)', '(d) − (e)', (r) => money(r.gain, r.minorUnits)),
  ],
};
