import { describe, expect, it } from 'vitest';
import type { CheckResult } from '../../../src/model/results.js';
import { checkOutcome, checksBySeverity, tieOut } from '../../../src/reconcile/tie-out.js';

const check = (check_id: string, severity: CheckResult['severity'], findings: number, skipped_reason: string | null = null): CheckResult => ({ check_id, description: check_id, severity, findings, passed: findings === 0, skipped_reason });

describe('tieOut', () => {
  it('ties out with warnings and info findings: only errors stop it', () => {
    expect(tieOut([check('a', 'error', 0), check('w', 'warning', 2), check('i', 'info', 8)])).toEqual({ ties: true, errors: 0, warnings: 2, info: 8, headline: 'Ties out — 0 errors, 2 warnings, 8 info' });
  });

  it('does not tie with one error finding, and counts findings rather than checks', () => {
    expect(tieOut([check('a', 'error', 1), check('b', 'error', 1_234), check('w', 'warning', 1)]).headline).toBe('Does not tie — 1,235 errors, 1 warning, 0 info');
  });
});

describe('checkOutcome and checksBySeverity', () => {
  it('never calls an info finding a failure', () => {
    expect([check('a', 'error', 1), check('w', 'warning', 1), check('i', 'info', 1), check('p', 'error', 0), check('s', 'error', 0, 'no summaries')].map(checkOutcome)).toEqual(['FAIL', 'WARN', 'NOTE', 'PASS', 'SKIPPED']);
  });

  it('orders errors, then warnings, then info; within a severity those with findings first, else catalogue order', () => {
    const ordered = checksBySeverity([check('i1', 'info', 0), check('w1', 'warning', 0), check('e1', 'error', 0), check('w2', 'warning', 3), check('e2', 'error', 1), check('e3', 'error', 0)]);
    expect(ordered.map((c) => c.check_id)).toEqual(['e2', 'e1', 'e3', 'w2', 'w1', 'i1']);
  });
});
