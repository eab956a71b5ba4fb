/**
 * A broker's Form 1099-DA data as a CSV file (docs/tax.md "The Form 1099-DA file"): a header, then
 * one row per form — "Report each transaction on a separate Form 1099-DA" (Instructions for Form
 * 1099-DA (2026), *How many transactions to report on each form*) — its columns named after the
 * form's boxes:
 *
 *   box_1b_name, box_1c_units, box_1e_date_sold, box_1f_proceeds        required
 *   box_1a_code, box_1d_date_acquired, box_1g_cost_basis, box_2_basis_reported,
 *   box_6_term, box_9_noncovered, applicable_checkbox, account_number, transaction_id   optional
 *
 * Units as a plain decimal (the form: up to 18 places), dates MM/DD/YYYY (the form's format; M/D
 * accepted), money as a plain decimal with at most two places, a check box as X, yes or true (empty
 * = not checked), box 6 as short, long or ordinary, the applicable checkbox as G, H, J, K or Y. A
 * bad row stops the run naming the file and line (exit 78), as a bad opening-lots row does.
 */
import { readFileSync } from 'node:fs';
import { parseDecimalToBase } from '../../money/format.js';
import { configError } from '../../util/errors.js';
import { csvRecords, CsvTextError } from './csv-text.js';

export interface Form1099DARow {
  /** 1-based line of the file */
  line: number;
  accountNumber: string;
  transactionId: string;
  code: string;
  /** box 1b, as written */
  name: string;
  /** box 1c, as written (compared exactly with the books' units) */
  units: string;
  /** box 1d, YYYY-MM-DD, or null (blank or VARIOUS) */
  acquired: string | null;
  /** box 1e, YYYY-MM-DD */
  sold: string;
  /** box 1f, cents */
  proceeds: bigint;
  /** box 1g, cents, or null when blank */
  basis: bigint | null;
  basisReported: boolean;
  term: 'short' | 'long' | 'ordinary' | null;
  noncovered: boolean;
  checkbox: 'G' | 'H' | 'J' | 'K' | 'Y' | null;
}

export interface BrokerForms {
  broker: string;
  /** as the configuration names it, for messages */
  file: string;
  wallets: readonly string[];
  rows: readonly Form1099DARow[];
}

const REQUIRED = ['box_1b_name', 'box_1c_units', 'box_1e_date_sold', 'box_1f_proceeds'];
const OPTIONAL = ['box_1a_code', 'box_1d_date_acquired', 'box_1g_cost_basis', 'box_2_basis_reported', 'box_6_term', 'box_9_noncovered', 'applicable_checkbox', 'account_number', 'transaction_id'];

export function parseForm1099DA(text: string, shownPath: string, minorUnits: number): Form1099DARow[] {
  const bad = (line: number, why: string): never => {
    throw configError('form_1099da_invalid', `Form 1099-DA file '${shownPath}' line ${line}: ${why}`);
  };
  let records: ReturnType<typeof csvRecords>;
  try {
    records = csvRecords(text);
  } catch (error) {
    if (error instanceof CsvTextError) bad(error.line, error.message);
    throw error;
  }
  const header = (records[0]?.fields ?? []).map((h) => h.trim().toLowerCase());
  const missing = REQUIRED.filter((h) => !header.includes(h));
  if (missing.length > 0) bad(1, `the header lacks ${missing.join(', ')} (columns: ${[...REQUIRED, ...OPTIONAL].join(', ')})`);
  const unknown = header.filter((h) => !REQUIRED.includes(h) && !OPTIONAL.includes(h));
  if (unknown.length > 0) bad(1, `unknown column ${unknown[0]?.slice(0, 40) ?? ''}`);
  return records.slice(1).map(({ line, fields }) => {
    if (fields.length !== header.length) bad(line, `expected ${header.length} fields, got ${fields.length}`);
    const get = (name: string): string => (fields[header.indexOf(name)] ?? '').trim();
    const money = (name: string, value: string): bigint => {
      try {
        return parseDecimalToBase(value.replace(/^\$/, ''), minorUnits);
      } catch {
        return bad(line, `${name} '${value.slice(0, 20)}' is not an amount with at most ${minorUnits} decimals`);
      }
    };
    const units = get('box_1c_units');
    if (!/^(0|[1-9]\d*)(\.\d{1,18})?$/.test(units) || /^0(\.0*)?$/.test(units)) bad(line, `box_1c_units '${units.slice(0, 30)}' is not a positive number of units (at most 18 decimals)`);
    const sold = usDate(get('box_1e_date_sold'));
    if (sold === null) bad(line, 'box_1e_date_sold is not a date MM/DD/YYYY');
    const acquiredText = get('box_1d_date_acquired');
    const acquired = acquiredText === '' || /^various$/i.test(acquiredText) ? null : usDate(acquiredText);
    if (acquiredText !== '' && !/^various$/i.test(acquiredText) && acquired === null) bad(line, 'box_1d_date_acquired is not a date MM/DD/YYYY or VARIOUS');
    const basisText = get('box_1g_cost_basis');
    const term = get('box_6_term').toLowerCase();
    if (!['', 'short', 'long', 'ordinary', 'short-term', 'long-term'].includes(term)) bad(line, `box_6_term '${term.slice(0, 20)}' is not short, long or ordinary`);
    const checkbox = get('applicable_checkbox').toUpperCase();
    if (!['', 'G', 'H', 'J', 'K', 'Y'].includes(checkbox)) bad(line, `applicable_checkbox '${checkbox.slice(0, 5)}' is not G, H, J, K or Y`);
    if (get('box_1b_name') === '') bad(line, 'box_1b_name is empty');
    return {
      line,
      accountNumber: get('account_number'),
      transactionId: get('transaction_id'),
      code: get('box_1a_code'),
      name: get('box_1b_name'),
      units,
      acquired,
      sold: sold as string,
      proceeds: money('box_1f_proceeds', get('box_1f_proceeds')),
      basis: basisText === '' ? null : money('box_1g_cost_basis', basisText),
      basisReported: checked(get('box_2_basis_reported')),
      term: term === '' ? null : term.startsWith('short') ? 'short' : term.startsWith('long') ? 'long' : 'ordinary',
      noncovered: checked(get('box_9_noncovered')),
      checkbox: checkbox === '' ? null : (checkbox as Form1099DARow['checkbox']),
    };
  });
}

export function loadForm1099DA(path: string, shownPath: string, minorUnits: number): Form1099DARow[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw configError('form_1099da_unreadable', `cannot read Form 1099-DA file '${shownPath}': ${(error as NodeJS.ErrnoException).code ?? 'error'}`);
  }
  return parseForm1099DA(text, shownPath, minorUnits);
}

/** MM/DD/YYYY (or M/D/YYYY) → YYYY-MM-DD, or null when it is not a calendar date. */
function usDate(text: string): string | null {
  const m = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(text);
  if (m === null) return null;
  const iso = `${m[3]}-${(m[1] as string).padStart(2, '0')}-${(m[2] as string).padStart(2, '0')}`;
  const at = Date.parse(`${iso}T00:00:00Z`);
  return !Number.isNaN(at) && new Date(at).toISOString().slice(0, 10) === iso ? iso : null;
}

function checked(text: string): boolean {
  return /^(x|yes|true|y|1)$/i.test(text);
}
