/**
 * The reconciliation of the brokers' Forms 1099-DA with the window's disposals (docs/tax.md
 * "Forms 1099-DA"): the pairing (form-1099da-match.ts), each match's effect on its Form 8949 lines
 * (form-1099da-adjust.ts), the tax.1099da_* findings, and the rows of
 * form-1099-da-reconciliation.csv — one per form considered and one per disposal no form reports.
 */
import { formatBase } from '../../money/format.js';
import type { Finding } from '../../model/results.js';
import { finding } from '../../reconcile/findings.js';
import type { ReliefLine } from '../model.js';
import { matchEffect, type FormDifference } from './form-1099da-adjust.js';
import type { BrokerForms, Form1099DARow } from './form-1099da-file.js';
import { costOf, pairForms, proceedsOf, type Disposal, type PairingInputs } from './form-1099da-match.js';
import type { LineReport } from './form-8949-lines.js';

export type ReconciliationStatus = 'matched' | 'differs' | 'unmatched' | 'duplicate' | 'not_reported';

export interface ReconciliationRow {
  status: ReconciliationStatus;
  differences: readonly FormDifference[];
  broker: string;
  row: Form1099DARow | null;
  disposal: Disposal | null;
  lines: readonly ReliefLine[];
}

export interface Reconciliation {
  reportOf(relief: ReliefLine): LineReport | undefined;
  rows: ReconciliationRow[];
  findings: Finding[];
  evaluated: Record<string, number>;
}

const CHECK: Record<FormDifference, 'tax.1099da_proceeds' | 'tax.1099da_basis' | 'tax.1099da_date' | 'tax.1099da_term'> = { proceeds: 'tax.1099da_proceeds', basis: 'tax.1099da_basis', date: 'tax.1099da_date', term: 'tax.1099da_term' };

export function reconcileForms(files: readonly BrokerForms[], reliefs: readonly ReliefLine[], inputs: PairingInputs & { minorUnits: number; brokerOf: (walletId: string) => string }): Reconciliation {
  const pairing = pairForms(files, reliefs, inputs);
  const reports = new Map<ReliefLine, LineReport>();
  const rows: ReconciliationRow[] = [];
  const findings: Finding[] = [];
  const where = (broker: string, row: Form1099DARow): string => `Form 1099-DA from ${broker}, line ${row.line}`;
  for (const match of pairing.matches) {
    const effect = matchEffect(match, inputs.minorUnits);
    for (const [line, report] of effect.reports) reports.set(line, report);
    rows.push({ status: effect.differences.length === 0 ? 'matched' : 'differs', differences: effect.differences, broker: match.broker, row: match.row, disposal: match.disposal, lines: match.lines });
    const subject = { subject_kind: 'ledger_entry' as const, subject_id: match.disposal.ref, wallet_id: match.disposal.walletId, currency: match.disposal.currency };
    for (const kind of effect.differences) {
      const [expected, actual] = kind === 'proceeds' ? [match.row.proceeds, proceedsOf(match.lines)] : kind === 'basis' ? [match.row.basis, costOf(match.lines)] : [null, null];
      findings.push(finding(CHECK[kind], { ...subject, expected, actual, message: `${where(match.broker, match.row)} and ${match.disposal.ref}: ${(effect.reports.get(match.lines[0] as ReliefLine)?.note ?? '').replace(/^[^:]*: /, '')}` }));
    }
  }
  for (const { broker, row } of pairing.unmatched) {
    rows.push({ status: 'unmatched', differences: [], broker, row, disposal: null, lines: [] });
    findings.push(finding('tax.1099da_unmatched', { subject_kind: 'ledger_entry', subject_id: row.transactionId || `${broker}:line ${row.line}`, wallet_id: null, expected: row.proceeds, message: `${where(broker, row)}: ${row.units} ${row.name} sold ${row.sold}, proceeds ${formatBase(row.proceeds, inputs.minorUnits)} — no disposal of its wallets matches (asset, units, date sold within a day): the IRS has a sale the books do not` }));
  }
  for (const { broker, row } of pairing.duplicates) {
    rows.push({ status: 'duplicate', differences: [], broker, row, disposal: null, lines: [] });
    findings.push(finding('tax.1099da_duplicate', { subject_kind: 'ledger_entry', subject_id: row.transactionId || `${broker}:line ${row.line}`, wallet_id: null, message: `${where(broker, row)} repeats an earlier line of the file box for box: counted once` }));
  }
  for (const d of pairing.notReported) {
    const broker = inputs.brokerOf(d.walletId);
    rows.push({ status: 'not_reported', differences: [], broker, row: null, disposal: d, lines: d.lines });
    const note = `No Form 1099-DA from ${broker} reports this disposal: box I or L.`;
    for (const line of d.lines) reports.set(line, { receipt: 'none', codes: '', adjustment: null, note });
    findings.push(finding('tax.1099da_not_reported', { subject_kind: 'ledger_entry', subject_id: d.ref, wallet_id: d.walletId, currency: d.currency, message: `${d.ref} (${d.day}): ${note}` }));
  }
  // the forms in their file's order (broker, line), then the disposals no form reports
  rows.sort((a, b) => (a.row === null ? 1 : 0) - (b.row === null ? 1 : 0) || (a.broker < b.broker ? -1 : a.broker > b.broker ? 1 : 0) || (a.row?.line ?? 0) - (b.row?.line ?? 0));
  const considered = rows.filter((r) => r.row !== null).length;
  const evaluated: Record<string, number> = { 'tax.1099da_unmatched': considered, 'tax.1099da_duplicate': considered, 'tax.1099da_not_reported': rows.filter((r) => r.disposal !== null).length };
  for (const kind of Object.values(CHECK)) evaluated[kind] = pairing.matches.length;
  return { reportOf: (relief) => reports.get(relief), rows, findings, evaluated };
}
