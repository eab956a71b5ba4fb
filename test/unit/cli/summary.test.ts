import { describe, expect, it } from 'vitest';
import { formatSummary } from '../../../src/cli/summary.js';
import type { PipelineOutcome } from '../../../src/jobs/pipeline.js';
import type { CheckResult, Finding } from '../../../src/reconcile/results.js';

function outcome(exitCode: 0 | 65, checks: CheckResult[], findings: Partial<Finding>[]): PipelineOutcome {
  const report = {
    publish: { dir: '/out/x', unchanged: false, manifest: { counts: {} } },
    result: { checks, findings, controlTotals: {} },
    exceptions: exitCode === 65,
    assets: [],
  };
  return { exitCode, runId: 'r', dir: '/out/x', report, pull: null, notClosed: null, plan: null } as unknown as PipelineOutcome;
}
const check = (check_id: string, severity: CheckResult['severity'], findings: number): CheckResult => ({ check_id, description: '', severity, findings, passed: findings === 0 });

describe('formatSummary', () => {
  it('does not call a run with only info notes "failed", and says where the notes are', () => {
    const text = formatSummary(outcome(0, [check('a', 'error', 0), check('payment.fee_terms_vs_settled', 'info', 8)], [{ severity: 'info' }]));
    expect(text).toContain('checks    2 run, 1 clean');
    expect(text).toContain('  notes     payment.fee_terms_vs_settled (8)');
    expect(text).not.toMatch(/failed/);
    expect(text).toContain('result    complete; no reconciliation errors — 1 note(s) in exceptions.csv (exit 0)');
  });

  it('lists failed checks and warnings apart', () => {
    const text = formatSummary(outcome(65, [check('e', 'error', 2), check('w', 'warning', 1), check('ok', 'error', 0)], [{}, {}, {}]));
    expect(text).toContain('checks    3 run, 1 clean');
    expect(text).toContain('  errors    e (2)');
    expect(text).toContain('  warnings  w (1)');
    expect(text).toContain('(exit 65)');
  });

  it('counts warnings and notes when the run still exits 0', () => {
    const text = formatSummary(outcome(0, [check('w', 'warning', 2), check('i', 'info', 1)], [{ severity: 'warning' }, { severity: 'warning' }, { severity: 'info' }]));
    expect(text).toContain('no reconciliation errors — 2 warning(s) and 1 note(s) in exceptions.csv (exit 0)');
  });

  it('says every check passed only when there are no findings at all', () => {
    expect(formatSummary(outcome(0, [check('a', 'error', 0)], []))).toContain('every reconciliation check passed (exit 0)');
  });
});
