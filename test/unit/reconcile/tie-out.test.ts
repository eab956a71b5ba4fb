import { describe, expect, it } from 'vitest';
import type { CheckResult } from '../../../src/model/results.js';
import { checkResult, outcomeOf, outcomeWord, withOutcomes } from '../../../src/reconcile/check-outcome.js';
import { checksBySeverity, tieOut } from '../../../src/reconcile/tie-out.js';

const check = (check_id: string, severity: CheckResult['severity'], findings: number, skipped_reason: string | null = null): CheckResult => checkResult({ id: check_id, description: check_id, severity }, findings, 0, skipped_reason);

describe('tieOut', () => {
  it('ties out with warnings and info findings: only errors stop it', () => {
    expect(tieOut([check('a', 'error', 0), check('w', 'warning', 2), check('i', 'info', 8)])).toEqual({ ties: true, errors: 0, warnings: 2, info: 8, notRun: [], headline: 'Ties out — 0 errors, 2 warnings, 8 info', wordsHeadline: 'Ties out — 0 errors, 2 warnings, 8 info' });
  });

  it('does not tie with one error finding, and counts findings rather than checks', () => {
    expect(tieOut([check('a', 'error', 1), check('b', 'error', 1_234), check('w', 'warning', 1)]).headline).toBe('Does not tie — 1,235 errors, 1 warning, 0 info');
  });
});

describe('the headline with checks not run', () => {
  it('counts and names the checks that did not run, after the findings', () => {
    const verdict = tieOut([check('a', 'error', 0), check('summary.total', 'error', 0, 'no summaries'), check('bill.line_counts', 'error', 0, 'no bills'), check('check.not_run', 'info', 2)]);
    expect(verdict).toMatchObject({ ties: true, info: 2, notRun: ['summary.total', 'bill.line_counts'] });
    expect(verdict.headline).toBe('Ties out — 0 errors, 0 warnings, 2 info; 2 checks not run: summary.total, bill.line_counts');
    // the Overview's words: the count, no id
    expect(verdict.wordsHeadline).toBe('Ties out — 0 errors, 0 warnings, 2 info; 2 checks could not run');
    expect(tieOut([check('a', 'error', 0)]).wordsHeadline).toBe('Ties out — 0 errors, 0 warnings, 0 info');
  });

  it('stays short: two names, then how many more (the Overview and the terminal list them all)', () => {
    const bills = ['bill.line_amounts', 'bill.line_counts', 'bill.line_processing_fees', 'bill.starting_balance'].map((id) => check(id, 'error', 0, 'no bills'));
    expect(tieOut([check('e', 'error', 1), ...bills]).headline).toBe('Does not tie — 1 error, 0 warnings, 0 info; 4 checks not run: bill.line_amounts, bill.line_counts and 2 more');
    expect(tieOut([check('x', 'error', 0, 'why')]).headline).toBe('Ties out — 0 errors, 0 warnings, 0 info; 1 check not run: x');
  });
});

describe('outcomeOf, outcomeWord and checksBySeverity', () => {
  it('has three outcomes: passed, failed (found something) and not run (a reason, nothing found)', () => {
    const checks = [check('p', 'error', 0), check('e', 'error', 3), check('i', 'info', 1), check('s', 'error', 0, 'no summaries'), check('partly', 'error', 1, 'some bills not tied'), check('empty', 'error', 0, '')];
    expect(checks.map(outcomeOf)).toEqual(['passed', 'failed', 'failed', 'not_run', 'failed', 'passed']);
    // `passed` is the outcome's: a check that did not run is never passed
    expect(checks.map((c) => c.passed)).toEqual([true, false, false, false, false, true]);
    expect(withOutcomes(checks).map((c) => c.outcome)).toEqual(checks.map(outcomeOf));
  });

  it('never calls an info finding a failure', () => {
    expect([check('a', 'error', 1), check('w', 'warning', 1), check('i', 'info', 1), check('p', 'error', 0), check('s', 'error', 0, 'no summaries')].map(outcomeWord)).toEqual(['FAIL', 'WARN', 'NOTE', 'PASS', 'NOT RUN']);
  });

  it('orders errors, then warnings, then info; within a severity those with findings first, else catalogue order', () => {
    const ordered = checksBySeverity([check('i1', 'info', 0), check('w1', 'warning', 0), check('e1', 'error', 0), check('w2', 'warning', 3), check('e2', 'error', 1), check('e3', 'error', 0)]);
    expect(ordered.map((c) => c.check_id)).toEqual(['e2', 'e1', 'e3', 'w2', 'w1', 'i1']);
  });

  it('puts the checks that did not run after those with findings, before those that passed', () => {
    const ordered = checksBySeverity([check('e1', 'error', 0), check('e2', 'error', 0, 'no bills'), check('e3', 'error', 2), check('w1', 'warning', 0, 'no summaries')]);
    expect(ordered.map((c) => c.check_id)).toEqual(['e3', 'e2', 'e1', 'w1']);
  });
});
