import { describe, expect, it } from 'vitest';
import { formatSummary } from '../../../src/cli/summary.js';
import type { PipelineOutcome } from '../../../src/jobs/pipeline.js';
import type { CheckResult, Finding } from '../../../src/model/results.js';
import { closeStatus, type CloseStatus } from '../../../src/sinks/close-status.js';

function outcome(exitCode: 0 | 65, checks: CheckResult[], findings: Partial<Finding>[], close: Partial<CloseStatus> = {}, notClosed: string | null = null): PipelineOutcome {
  const report = {
    publish: { dir: '/out/x', unchanged: false, manifest: { counts: {} } },
    result: { checks, findings, controlTotals: {} },
    exceptions: exitCode === 65,
    assets: [],
    close: { state: 'not_a_closing_run', open_items: 0, words: 'Not closed by this run.', ...close },
  };
  return { exitCode, runId: 'r', dir: '/out/x', report, pull: null, notClosed, plan: null } as unknown as PipelineOutcome;
}
const check = (check_id: string, severity: CheckResult['severity'], findings: number, skipped_reason: string | null = null): CheckResult => ({ check_id, description: '', severity, findings, passed: findings === 0 && skipped_reason === null, skipped_reason });

describe('formatSummary', () => {
  it('does not call a run with only info notes "failed", and says where the notes are', () => {
    const text = formatSummary(outcome(0, [check('a', 'error', 0), check('payment.fee_terms_vs_settled', 'info', 8)], [{ severity: 'info' }]));
    expect(text).toContain('checks    2: 1 passed, 1 with findings, 0 not run');
    expect(text).toContain('  info      payment.fee_terms_vs_settled (8)');
    expect(text).toContain('tie-out   Ties out — 0 errors, 0 warnings, 8 info');
    expect(text).not.toMatch(/failed/);
    expect(text).toContain('result    complete; no reconciliation errors — 8 info in exceptions.csv (exit 0)');
  });

  it('lists failed checks and warnings apart', () => {
    const text = formatSummary(outcome(65, [check('e', 'error', 2), check('w', 'warning', 1), check('ok', 'error', 0)], [{}, {}, {}]));
    expect(text).toContain('checks    3: 1 passed, 2 with findings, 0 not run');
    expect(text).toContain('  error     e (2)');
    expect(text).toContain('  warning   w (1)');
    expect(text).toContain('tie-out   Does not tie — 2 errors, 1 warning, 0 info');
    expect(text).toContain('result    does not tie: 2 error finding(s) in exceptions.csv / the Exceptions sheet (exit 65)');
  });

  it('counts warnings and notes when the run still exits 0', () => {
    const text = formatSummary(outcome(0, [check('w', 'warning', 2), check('i', 'info', 1)], [{ severity: 'warning' }, { severity: 'warning' }, { severity: 'info' }]));
    expect(text).toContain('no reconciliation errors — 2 warning(s) and 1 info in exceptions.csv (exit 0)');
  });

  it('never counts a check that did not run as passed: the count, one line per reason, the headline and the result say so', () => {
    const checks = [check('a', 'error', 0), check('summary.total', 'error', 0, 'no payment summaries were pulled for this window'), check('summary.bucket', 'error', 0, 'no payment summaries were pulled for this window'), check('balance.api_total', 'error', 0, 'no wallet balance'), check('check.not_run', 'info', 3)];
    const text = formatSummary(outcome(0, checks, [{ severity: 'info' }, { severity: 'info' }, { severity: 'info' }]));
    expect(text).toContain('checks    5: 1 passed, 1 with findings, 3 not run');
    expect(text).toContain('  not run   summary.total, summary.bucket: no payment summaries were pulled for this window');
    expect(text).toContain('  not run   balance.api_total: no wallet balance');
    expect(text).toContain('tie-out   Ties out — 0 errors, 0 warnings, 3 info; 3 checks not run: summary.total, summary.bucket and 1 more');
    expect(text).toContain('result    complete; no reconciliation errors — 3 info in exceptions.csv; 3 check(s) not run (listed above) (exit 0)');
    expect(text).not.toContain('every reconciliation check passed');
  });

  it('says every check passed only when there are no findings at all', () => {
    expect(formatSummary(outcome(0, [check('a', 'error', 0)], []))).toContain('every reconciliation check passed (exit 0)');
  });

  it('says when exit 65 comes from open items rather than errors, and names open-items.csv', () => {
    const close = closeStatus({ closing: true, allowOpen: false, closedBefore: false, openItems: 3, period: '2026-10' });
    const text = formatSummary(outcome(65, [check('a', 'error', 0)], [], close, '2026-10 has 3 open item(s)'));
    expect(text).toContain('tie-out   Ties out — 0 errors, 0 warnings, 0 info');
    expect(text).toContain('period    Not closed: 3 open items');
    expect(text).toMatch(/result {4}ties out, but the period is NOT CLOSED: .*open-items\.csv \(exit 65 — from open items, not from errors\)/);
  });

  it('states a close with --allow-open and the items carried', () => {
    const close = closeStatus({ closing: true, allowOpen: true, closedBefore: false, openItems: 2, period: '2026-10' });
    expect(formatSummary(outcome(0, [check('a', 'error', 0)], [], close))).toContain('period    Closed with 2 open items carried into the next period: payments not yet completed, failed or expired (open-items.csv).');
  });
});
