/**
 * form-8949-taxact.csv: the Form 8949 lines as TaxAct's "create your own spreadsheet" import reads
 * them (TaxAct support article 882, "Form 1099-B - Create Your Own Spreadsheet (CSV File)";
 * docs/tax.md "Imports"). Its columns are the headings that article names: the required
 * Description, Date Acquired, Date Sold, Sales Proceeds and Cost or Other Basis; Adjustment Code
 * ("a proper Form 8949 … adjustment code") and Adjustment Amount; Reporting Category ("which box to
 * mark on Form 8949") — the line's box letter.
 *
 * What the article does not fix is fixed here the way the forms write it: dates MM/DD/YYYY (Form
 * 8949's "Mo., day, yr.", Form 1099-DA's box 1e); amounts as plain decimals with two places, no
 * currency sign or grouping; only an adjustment can be negative, with a leading minus; UTF-8
 * without a byte-order mark (the text is ASCII), CRLF (LF when the folder's csv.eol says so, as
 * `payexport verify` reads every CSV of the folder), fields quoted only when they must be.
 * A line with an unknown figure cannot be imported (its basis or proceeds would read as zero): it
 * is left out and counted, and the run says so.
 */
import { formatBase } from '../../money/format.js';
import { code, decimal, text, type TableSpec } from '../../model/column-spec.js';
import type { Form8949Line } from './form-8949-lines.js';

/** TaxAct's import takes at most this many Forms 1099-B per return (article 882). */
export const TAXACT_MAX_TRANSACTIONS = 2000;

export interface TaxActRow {
  line: Form8949Line;
  minorUnits: number;
}

const money = (v: bigint | null, scale: number): string | null => (v === null ? null : formatBase(v, scale));

export const TAXACT_TABLE: TableSpec<TaxActRow> = {
  id: 'form_8949_taxact',
  file: 'form-8949-taxact.csv',
  sheet: 'none: import file',
  rowIs: 'Form 8949 line for TaxAct’s CSV import (TaxAct support article 882): every complete line of form-8949.csv',
  columns: [
    text('Description', 'column (a): units and asset, at most 8 decimals', (r) => r.line.description),
    code('Date Acquired', 'column (b), MM/DD/YYYY', (r) => r.line.acquired),
    code('Date Sold', 'column (c), MM/DD/YYYY', (r) => r.line.sold),
    decimal('Sales Proceeds', 'column (d), two decimals, never negative', (r) => money(r.line.proceeds, r.minorUnits)),
    decimal('Cost or Other Basis', 'column (e), two decimals, never negative', (r) => money(r.line.cost, r.minorUnits)),
    code('Adjustment Code', 'column (f): Form 8949 codes, alphabetical; empty = none', (r) => r.line.codes),
    decimal('Adjustment Amount', 'column (g), a leading minus when negative; empty = none', (r) => money(r.line.adjustment, r.minorUnits)),
    code('Reporting Category', 'the Form 8949 box: A–F, or G–L for digital assets from tax year 2025', (r) => r.line.box),
  ],
};

/** The import file's text, and how many lines it holds and left out. */
export function taxActFile(lines: readonly Form8949Line[], minorUnits: number, eol: 'crlf' | 'lf' = 'crlf'): { text: string; rows: number; incomplete: number } {
  const out = [TAXACT_TABLE.columns.map((c) => field(c.name)).join(',')];
  let incomplete = 0;
  for (const line of lines) {
    if (line.proceeds === null || line.cost === null) {
      incomplete += 1;
      continue;
    }
    const row = { line, minorUnits };
    out.push(TAXACT_TABLE.columns.map((c) => field((c.get(row, NO_CONTEXT) as string | null) ?? '')).join(','));
  }
  const end = eol === 'crlf' ? '\r\n' : '\n';
  return { text: `${out.join(end)}${end}`, rows: out.length - 1, incomplete };
}

const NO_CONTEXT = { assetDecimals: new Map(), assetNames: new Map(), asOf: '' } as const;

/** RFC 4180: quoted when it holds a comma, a quote or a line break; quotes doubled. */
function field(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}
