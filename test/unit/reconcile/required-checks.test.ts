import { describe, expect, it } from 'vitest';
import type { ReconcileResult } from '../../../src/model/results.js';
import { CHECKS } from '../../../src/reconcile/catalogue.js';
import { JOURNAL_CHECKS } from '../../../src/reconcile/catalogue/journal.js';
import { LOTS_CHECKS } from '../../../src/reconcile/catalogue/lots.js';
import { checkResult } from '../../../src/reconcile/check-outcome.js';
import { REQUIRED_CHECKS, withChecksNotRun } from '../../../src/reconcile/required-checks.js';
import { tieOut } from '../../../src/reconcile/tie-out.js';

const SUMMARIES = 'no payment summaries were pulled for this window';

function result(): ReconcileResult {
  const checks = [
    checkResult({ id: 'payment.ledger_match', description: 'd', severity: 'error' }, 0, 10, null),
    checkResult({ id: 'summary.total', description: 'd', severity: 'error' }, 0, 0, SUMMARIES),
    checkResult({ id: 'summary.missing', description: 'd', severity: 'warning' }, 0, 0, SUMMARIES),
  ];
  return { findings: [], checks, fees: [], balances: [], summaryChecks: [], controlTotals: {}, openItems: [], bills: [], feeRates: [] };
}

describe('withChecksNotRun', () => {
  it('gives each check that did not run one info row with its reason, outside a close', () => {
    const out = withChecksNotRun(result(), { closes: false, period: '2026-11-01_2026-11-21' });
    expect(out.findings.map((f) => [f.check_id, f.severity, f.subject_kind, f.subject_id, f.message])).toEqual([
      ['check.not_run', 'info', 'check', 'summary.missing', `not run: ${SUMMARIES}`],
      ['check.not_run', 'info', 'check', 'summary.total', `not run: ${SUMMARIES}`],
    ]);
    expect(out.checks.map((c) => c.check_id)).toEqual(['payment.ledger_match', 'summary.total', 'summary.missing', 'check.not_run']);
    expect(out.checks.at(-1)).toMatchObject({ findings: 2, evaluated: 3, passed: false, skipped_reason: null });
    expect(tieOut(out.checks)).toMatchObject({ ties: true, warnings: 0, info: 2, notRun: ['summary.total', 'summary.missing'] });
  });

  it('makes a required check not run a warning of the close, which still does not stop the tie-out', () => {
    const out = withChecksNotRun(result(), { closes: true, period: '2026-10' });
    const required = out.findings.find((f) => f.subject_id === 'summary.total');
    expect(required).toMatchObject({ check_id: 'close.required_check_not_run', severity: 'warning', subject_kind: 'check' });
    expect(required?.message).toContain(`not run: ${SUMMARIES}. summary.total is required to close 2026-10: a warning, not an error`);
    expect(out.findings.find((f) => f.subject_id === 'summary.missing')).toMatchObject({ check_id: 'check.not_run', severity: 'info' });
    expect(out.checks.slice(-2).map((c) => [c.check_id, c.findings, c.evaluated])).toEqual([
      ['check.not_run', 1, 3],
      ['close.required_check_not_run', 1, 2],
    ]);
    expect(tieOut(out.checks)).toMatchObject({ ties: true, warnings: 1, info: 1 });
  });

  it('lists the run checks as passed when every check ran', () => {
    const ran = { ...result(), checks: result().checks.slice(0, 1) };
    const out = withChecksNotRun(ran, { closes: true, period: '2026-10' });
    expect(out.findings).toEqual([]);
    expect(out.checks.slice(-2).map((c) => [c.check_id, c.passed])).toEqual([
      ['check.not_run', true],
      ['close.required_check_not_run', true],
    ]);
  });

  it('requires only catalogue checks', () => {
    const ids = new Set<string>([...CHECKS, ...JOURNAL_CHECKS, ...LOTS_CHECKS].map((c) => c.id));
    for (const id of REQUIRED_CHECKS) expect(ids.has(id), id).toBe(true);
  });
});
