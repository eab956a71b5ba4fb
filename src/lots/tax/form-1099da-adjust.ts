/**
 * What a matched Form 1099-DA does to its Form 8949 lines (docs/tax.md "Forms 1099-DA"), each rule
 * as the Instructions for Form 8949 (2025) give it:
 *
 * - the box: G/J when the form shows basis reported to the IRS (box 2 checked, or its applicable
 *   checkbox G or J), H/K otherwise (*Box A or Box G* … *Box E or Box K*);
 * - proceeds: "If you receive Form … 1099-DA … always report the proceeds … shown on the form …
 *   in column (d). … If any correction or adjustment to these amounts is needed, make it in column
 *   (g)" — a form showing more than the books: (d) the form's, (g) the difference, code O (an
 *   adjustment not explained elsewhere in the table); "If the proceeds you received were more than
 *   shown on … Form 1099-DA …, enter the correct proceeds in column (d)" — a form showing less:
 *   (d) the books' (*Column (d)*);
 * - basis (code B): with basis reported, "enter the basis shown on Form 1099-B or Form 1099-DA …
 *   in column (e), even though that basis is incorrect. Correct the error by entering an
 *   adjustment in column (g)" — reported − correct (*Worksheet for Basis Adjustments in Column
 *   (g)*); without, "enter the correct basis in column (e), and enter -0- in column (g)";
 * - term (code T): a holding period the form shows wrongly — "Report the transaction on the
 *   correct part of Form 8949, and enter -0- in column (g)".
 *
 * The form's figures are shared over its lines by units (floor and largest remainder, as the
 * journal's legs are), so each line's (d), (e), (g) add up to the form. (h) = (d) − (e) + (g) is
 * then the books' gain on every line. Codes are alphabetical, without separator (*Column (f)*).
 */
import type { Form1099DAReceipt } from '../../config/tax-schema.js';
import { formatBase } from '../../money/format.js';
import type { ReliefLine, Term } from '../model.js';
import { shareByUnits } from '../relief.js';
import type { LineReport } from './form-8949-lines.js';
import { costOf, proceedsOf, type FormMatch } from './form-1099da-match.js';

/** The kinds of difference a match can show (tax.1099da_* checks). */
export type FormDifference = 'proceeds' | 'basis' | 'date' | 'term';

export interface MatchEffect {
  match: FormMatch;
  receipt: Form1099DAReceipt;
  differences: FormDifference[];
  /** per relief line of the match */
  reports: Map<ReliefLine, LineReport>;
}

export function matchEffect(match: FormMatch, minorUnits: number): MatchEffect {
  const { row, lines } = match;
  const receipt: Form1099DAReceipt = row.basisReported || row.checkbox === 'G' || row.checkbox === 'J' ? 'basis_reported' : 'basis_not_reported';
  const formTerm: Term | null = row.term === 'short' || row.term === 'long' ? row.term : row.checkbox === 'G' || row.checkbox === 'H' ? 'short' : row.checkbox === 'J' || row.checkbox === 'K' ? 'long' : null;
  const books = { proceeds: proceedsOf(lines), cost: costOf(lines) };
  const units = lines.map((l) => l.units);
  const proceedsShare = shareByUnits(row.proceeds, units);
  const basisShare = row.basis === null ? null : shareByUnits(row.basis, units);
  const formMore = books.proceeds !== null && row.proceeds > books.proceeds;
  const basisDiffers = row.basis !== null && row.basis !== books.cost;
  const differences: FormDifference[] = [];
  if (books.proceeds === null || row.proceeds !== books.proceeds) differences.push('proceeds');
  if (basisDiffers) differences.push('basis');
  if (row.sold !== match.disposal.day) differences.push('date');
  if (formTerm !== null && lines.some((l) => l.term !== formTerm)) differences.push('term');
  const money = (v: bigint | null): string => (v === null ? 'unknown' : formatBase(v, minorUnits));
  const said: string[] = [];
  if (differences.includes('proceeds')) said.push(`proceeds ${money(row.proceeds)} on the form, ${money(books.proceeds)} in the books`);
  if (basisDiffers) said.push(`basis ${money(row.basis)} on the form, ${money(books.cost)} in the books`);
  if (differences.includes('date')) said.push(`date sold ${usDay(row.sold)} on the form`);
  if (differences.includes('term')) said.push(`${formTerm ?? ''} term on the form`);
  const note = `Form 1099-DA from ${match.broker} (line ${row.line})${said.length === 0 ? ' agrees.' : `: ${said.join('; ')}.`}`;
  const reports = new Map<ReliefLine, LineReport>();
  lines.forEach((line, i) => {
    const codes = new Set<string>();
    let adjustment = 0n;
    let proceeds: bigint | undefined;
    let cost: bigint | undefined;
    if (formMore && line.proceeds !== null) {
      proceeds = proceedsShare[i] as bigint;
      codes.add('O');
      adjustment += line.proceeds - proceeds;
    }
    if (basisDiffers && basisShare !== null) {
      codes.add('B');
      if (receipt === 'basis_reported' && line.cost !== null) {
        cost = basisShare[i] as bigint;
        adjustment += cost - line.cost;
      }
    }
    if (formTerm !== null && line.term !== formTerm) codes.add('T');
    const report: LineReport = { receipt, codes: [...codes].sort().join(''), adjustment: codes.size === 0 ? null : adjustment, note };
    if (proceeds !== undefined) report.proceeds = proceeds;
    if (cost !== undefined) report.cost = cost;
    reports.set(line, report);
  });
  return { match, receipt, differences, reports };
}

function usDay(day: string): string {
  return `${day.slice(5, 7)}/${day.slice(8, 10)}/${day.slice(0, 4)}`;
}
