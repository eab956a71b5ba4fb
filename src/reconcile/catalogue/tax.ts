/**
 * The US tax files' checks (docs/tax.md): run by the lots pass with `lots.tax.form8949` on — the
 * import files' completeness, the recorded 1 January 2025 allocation against the opening-lots file,
 * and the reconciliation of the brokers' Forms 1099-DA with the disposals.
 */
import type { CheckDefinition } from './check-definition.js';

export const TAX_CHECKS = [
  {
    id: 'tax.import_incomplete',
    severity: 'warning',
    subject_kind: 'run',
    description: 'Every Form 8949 line can be imported into tax software',
    rule: 'A line of form-8949.csv with an unknown proceeds or basis (journal.needs_price, lots.basis_unknown) is left out of form-8949-taxact.csv and form-8949.txf — an importer would read it as zero — and counted here.',
  },
  {
    id: 'tax.import_limit',
    severity: 'warning',
    subject_kind: 'run',
    description: 'The TaxAct import file fits TaxAct’s limit',
    rule: 'TaxAct imports at most 2,000 Forms 1099-B per return; a form-8949-taxact.csv with more lines is listed here: attach the statement and enter each box’s totals instead (Instructions for Form 8949, Exception 2).',
  },
  {
    id: 'tax.allocation_changed',
    severity: 'warning',
    subject_kind: 'run',
    description: 'The opening-lots file still gives the 1 January 2025 allocation a close recorded',
    rule: 'A run that starts from a closed period’s record compares the opening-lots file’s rows acquired on or before 31 December 2024 with the allocation that close recorded; a difference is listed once. The allocation is irrevocable (Rev. Proc. 2024-28, section 4.02(6)): the statement and the lots keep the recorded one.',
  },
  {
    id: 'tax.1099da_unmatched',
    severity: 'error',
    subject_kind: 'ledger_entry',
    description: 'Every sale a Form 1099-DA reports is a disposal in the books',
    rule: 'A row of a broker’s Form 1099-DA file (lots.tax.forms1099DA) dated in the window that matches no disposal of its wallets — same asset, units (box 1c) equal to the disposal’s principal or to all its legs, date sold (box 1e) within a day — is listed: the IRS has a sale the books do not.',
  },
  {
    id: 'tax.1099da_not_reported',
    severity: 'info',
    subject_kind: 'ledger_entry',
    description: 'Disposals of wallets with Forms 1099-DA that no form reports',
    rule: 'A disposal of a wallet whose broker’s Form 1099-DA file was read, and that no row of it matches, is reported in box I or L (no Form 1099-DA received for it) and noted here — a payment processor need not report payments under its de minimis.',
  },
  {
    id: 'tax.1099da_proceeds',
    severity: 'warning',
    subject_kind: 'ledger_entry',
    description: 'A Form 1099-DA’s proceeds equal the books’',
    rule: 'Box 1f against the proceeds of the matched legs: when the form shows more, (d) is the form’s and (g) the difference with code O; when less, (d) is the books’ (Instructions for Form 8949, Column (d)).',
  },
  {
    id: 'tax.1099da_basis',
    severity: 'warning',
    subject_kind: 'ledger_entry',
    description: 'A Form 1099-DA’s basis equals the books’',
    rule: 'Box 1g against the cost of the matched lots: with basis reported (box G/J), (e) is the form’s and (g) the correction, code B; without (H/K), (e) is the books’ and (g) -0-, code B (Worksheet for Basis Adjustments in Column (g)).',
  },
  {
    id: 'tax.1099da_date',
    severity: 'warning',
    subject_kind: 'ledger_entry',
    description: 'A Form 1099-DA’s date sold is the disposal’s',
    rule: 'Box 1e against the disposal’s date in the reporting zone: a day apart is matched and listed here; the books’ date is the one on Form 8949.',
  },
  {
    id: 'tax.1099da_term',
    severity: 'warning',
    subject_kind: 'ledger_entry',
    description: 'A Form 1099-DA’s holding period is the books’',
    rule: 'Box 6 (or the form’s applicable checkbox G/H short, J/K long) against the term of each matched lot: a line whose term differs is reported in the part the books give, code T, -0- in (g).',
  },
  {
    id: 'tax.1099da_duplicate',
    severity: 'warning',
    subject_kind: 'ledger_entry',
    description: 'A broker’s Form 1099-DA file lists each sale once',
    rule: 'A row identical to an earlier one of the same file (every box, the account and the transaction id) is listed here and matched once.',
  },
] as const satisfies readonly CheckDefinition[];
