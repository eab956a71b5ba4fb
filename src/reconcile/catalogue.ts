/**
 * The catalogue of reconciliation checks: id, severity, what it looks at, and the rule it applies.
 * The report's Definitions sheet, the README and docs/reconciliation.md list exactly these.
 * Severity `error` makes the job exit 65 (hasErrors in findings.ts); `warning` and `info` do not.
 *
 * Each family of checks is in a file of its own under catalogue/ (the data is long, the rule for
 * each is the same); this file puts them in the order the reports list them, and looks one up.
 */
import { BILL_CHECKS } from './catalogue/bills.js';
import type { CheckDefinition } from './catalogue/check-definition.js';
import { FEE_RATE_CHECKS } from './catalogue/fee-rates.js';
import { FEE_CHECKS } from './catalogue/fees.js';
import { JOURNAL_CHECKS } from './catalogue/journal.js';
import { LEDGER_CHECKS } from './catalogue/ledger.js';
import { LOTS_CHECKS } from './catalogue/lots.js';
import { SUMMARY_AND_BALANCE_CHECKS } from './catalogue/summaries-balances.js';
import { RUN_CHECKS } from './catalogue/run.js';
import { TAX_CHECKS } from './catalogue/tax.js';

/** The reconciler's checks, in the order the Definitions sheet and docs/reconciliation.md list them. */
export const CHECKS = [...LEDGER_CHECKS, ...FEE_CHECKS, ...SUMMARY_AND_BALANCE_CHECKS, ...FEE_RATE_CHECKS, ...BILL_CHECKS] as const;

export type CheckId = (typeof CHECKS)[number]['id'] | (typeof JOURNAL_CHECKS)[number]['id'] | (typeof LOTS_CHECKS)[number]['id'] | (typeof TAX_CHECKS)[number]['id'] | (typeof RUN_CHECKS)[number]['id'];

const BY_ID: ReadonlyMap<string, CheckDefinition> = new Map([...CHECKS, ...JOURNAL_CHECKS, ...LOTS_CHECKS, ...TAX_CHECKS, ...RUN_CHECKS].map((check) => [check.id, check]));

export function checkDefinition(id: CheckId): CheckDefinition {
  const check = BY_ID.get(id);
  if (!check) throw new Error(`unknown check ${id}`);
  return check;
}
