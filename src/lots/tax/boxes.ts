/**
 * Form 8949's boxes and where their totals go on Schedule D (docs/tax.md "Boxes").
 *
 * Part I (short term) has boxes A, B, C and, from tax year 2025, G, H, I for digital assets; Part
 * II (long term) D, E, F and J, K, L. A digital asset's box says whether a Form 1099-DA reported
 * the disposal and whether it reported basis (box 2 of the 1099-DA): G/J with basis reported, H/K
 * without, I/L when no 1099-DA was received — "Do not use box C [F] to report digital asset
 * transactions. Use box I [L]." (Instructions for Form 8949 (2025), Part I and Part II). Before
 * 2025 the form had boxes A–F only, and a digital asset took the box of a Form 1099-B (A/D, B/E)
 * or C/F.
 *
 * Each box's totals go to one Schedule D line: 1b (A or G), 2 (B or H), 3 (C or I), 8b (D or J),
 * 9 (E or K), 10 (F or L) — Form 8949 (2025), line 2 of each part.
 */
import type { Form1099DAReceipt } from '../../config/tax-schema.js';
import type { Term } from '../model.js';

export type Box8949 = 'A' | 'B' | 'C' | 'D' | 'E' | 'F' | 'G' | 'H' | 'I' | 'J' | 'K' | 'L';
export type Part8949 = 'I' | 'II';

/** the first tax year whose Form 8949 has the digital-asset boxes G–L */
export const FIRST_DIGITAL_ASSET_BOX_YEAR = 2025;

/** The box of a digital-asset disposal: its term, its tax year and what its broker reported. */
export function box8949(term: Term, taxYear: number, receipt: Form1099DAReceipt): Box8949 {
  const digital = taxYear >= FIRST_DIGITAL_ASSET_BOX_YEAR;
  const k = receipt === 'basis_reported' ? 0 : receipt === 'basis_not_reported' ? 1 : 2;
  const boxes: readonly Box8949[] = term === 'short' ? (digital ? ['G', 'H', 'I'] : ['A', 'B', 'C']) : digital ? ['J', 'K', 'L'] : ['D', 'E', 'F'];
  return boxes[k] as Box8949;
}

export function partOf(box: Box8949): Part8949 {
  return 'ABCGHI'.includes(box) ? 'I' : 'II';
}

/** The order boxes are listed in: the form's, Part I then Part II. */
export const BOX_ORDER: readonly Box8949[] = ['A', 'B', 'C', 'G', 'H', 'I', 'D', 'E', 'F', 'J', 'K', 'L'];

/** The Schedule D line a box's totals are included on (Form 8949 (2025), Part I/II line 2). */
export const SCHEDULE_D_LINE: Readonly<Record<Box8949, string>> = { A: '1b', G: '1b', B: '2', H: '2', C: '3', I: '3', D: '8b', J: '8b', E: '9', K: '9', F: '10', L: '10' };

/** The box's text as Form 8949 (2025) prints it beside its check box. */
export const BOX_TEXT: Readonly<Record<Box8949, string>> = {
  A: 'Short-term transactions reported on Form(s) 1099-B showing basis was reported to the IRS',
  B: 'Short-term transactions reported on Form(s) 1099-B showing basis was not reported to the IRS',
  C: 'Short-term transactions, other than digital asset transactions, not reported to you on Form 1099-B or Form 1099-DA',
  G: 'Short-term transactions reported on Form(s) 1099-DA showing basis was reported to the IRS',
  H: 'Short-term transactions reported on Form(s) 1099-DA showing basis was not reported to the IRS',
  I: 'Short-term digital asset transactions not reported to you on Form 1099-DA or Form 1099-B',
  D: 'Long-term transactions reported on Form(s) 1099-B showing basis was reported to the IRS',
  E: 'Long-term transactions reported on Form(s) 1099-B showing basis was not reported to the IRS',
  F: 'Long-term transactions, other than digital asset transactions, not reported to you on Form 1099-B or Form 1099-DA',
  J: 'Long-term transactions reported on Form(s) 1099-DA showing basis was reported to the IRS',
  K: 'Long-term transactions reported on Form(s) 1099-DA showing basis was not reported to the IRS',
  L: 'Long-term digital asset transactions not reported to you on Form 1099-DA or Form 1099-B',
};

/** Whether a box's rows carry a basis the broker reported to the IRS (the form's Note: (e) is the reported basis). */
export function basisReportedBox(box: Box8949): boolean {
  return box === 'A' || box === 'D' || box === 'G' || box === 'J';
}
