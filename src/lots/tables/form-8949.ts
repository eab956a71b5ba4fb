/**
 * form-8949.csv: IRS Form 8949 lines, one per relief line (not aggregated: each line is one lot and
 * one leg of a disposal, so a preparer can trace it to lot-reliefs.csv), Part I (short term) before
 * Part II (long term), each box's lines together in the form's order (docs/tax.md). Columns (a)–(h)
 * as the form names them, dates MM/DD/YYYY in the reporting zone; the box and the Schedule D line
 * its totals go to; a note where a figure needs one (proceeds under a cent, a Form 1099-DA
 * difference); then the raw references: the exact units, the wallet, the disposal, the lot.
 */
import { baseAmount, code, count, decimal, id, text, type TableSpec } from '../../model/column-spec.js';
import { money, type Form8949Line } from '../tax/form-8949-lines.js';

export interface Form8949Row {
  line: Form8949Line;
  minorUnits: number;
}

export const FORM_8949_TABLE: TableSpec<Form8949Row> = {
  id: 'form_8949',
  file: 'form-8949.csv',
  sheet: 'Form 8949',
  // the sheets are the Form 8949 statement, one per box (form-8949-statement.ts); this CSV is the lines
  laidOut: true,
  rowIs: 'Form 8949 line: one relief line of the window (Part I short term, then Part II long term; by box within each part)',
  columns: [
    count('tax_year', "the tax year: the year of the disposal's date in the reporting zone", (r) => r.line.taxYear),
    code('part', 'I (short term, held one year or less) or II (long term)', (r) => r.line.part),
    code('box', 'the Form 8949 box: G, H, I (Part I) or J, K, L (Part II) for digital assets from tax year 2025, A–F before (docs/tax.md)', (r) => r.line.box),
    code('schedule_d_line', "the Schedule D line the box's totals are included on: 1b, 2, 3, 8b, 9 or 10", (r) => r.line.scheduleDLine),
    text('(a) Description of property', 'units and asset, at most 8 decimals (BTC to the satoshi; a lot under one satoshi says so); the exact units are in units_base', (r) => r.line.description),
    code('(b) Date acquired', 'MM/DD/YYYY', (r) => r.line.acquired),
    code('(c) Date sold or disposed of', 'MM/DD/YYYY', (r) => r.line.sold),
    decimal('(d) Proceeds', "in the books' currency; empty = needs a price", (r) => money(r.line.proceeds, r.minorUnits)),
    decimal('(e) Cost or other basis', "in the books' currency; the basis a Form 1099-DA reported in box G or J; empty = unknown basis (lots.basis_unknown)", (r) => money(r.line.cost, r.minorUnits)),
    code('(f) Code(s)', 'adjustment codes from the instructions, alphabetical, no separator (B, O, T: a Form 1099-DA difference); empty = none', (r) => r.line.codes),
    decimal('(g) Amount of adjustment', 'negative = a reduction of the gain; empty = none', (r) => money(r.line.adjustment, r.minorUnits)),
    decimal('(h) Gain or (loss)', '(d) − (e) + (g); negative = a loss', (r) => money(r.line.gain, r.minorUnits)),
    text('note', 'why a figure is what it is: proceeds under one cent, an unknown basis or price, a Form 1099-DA difference; empty otherwise', (r) => r.line.note),
    code('currency', 'btc or asset:<hex>', (r) => r.line.relief.currency),
    baseAmount<Form8949Row>('units', 'the exact units disposed of', (r) => r.line.relief.units, (r) => r.line.relief.currency),
    { name: 'units', type: 'display', description: 'the exact units in whole units of the asset: BTC with 11 decimals, an asset with its decimal_display', get: (r) => r.line.relief.units, currency: (r) => r.line.relief.currency },
    id('wallet_id', 'the wallet the units left (basis is per wallet)', (r) => r.line.relief.walletId),
    id('disposal_ref', 'the disposing ledger movement, <entry_type>:<entry_id> (the transaction reference)', (r) => r.line.relief.disposalRef),
    code('disposal_part', 'principal, network_fee, processing_fee, transfer_fee, withdrawal or swap', (r) => r.line.relief.part),
    id('lot_id', 'the lot relieved (lots.csv, lot-reliefs.csv)', (r) => r.line.relief.lotId),
  ],
};
