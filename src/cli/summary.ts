/**
 * The closing summary a person reads after a run: where the files are, counts, totals per
 * currency, checks that failed, and the exit code's meaning. Plain text, no secrets by construction
 * (it prints ids, amounts and paths only).
 */
import { formatBase } from '../money/format.js';
import { displayScale } from '../money/units.js';
import type { PipelineOutcome } from '../jobs/pipeline.js';

export function formatSummary(outcome: PipelineOutcome): string {
  const lines: string[] = [];
  const report = outcome.report;
  if (outcome.pull) {
    const rows = (kind: string): number => outcome.pull!.streams.filter((s) => s.stream.startsWith(kind)).reduce((n, s) => n + s.rows, 0);
    lines.push(`pulled    ${rows('payments')} payments, ${rows('ledger')} ledger entries, ${rows('summary')} summary buckets` + (outcome.pull.duplicates ? ` (${outcome.pull.duplicates} duplicates dropped)` : ''));
  }
  if (report) {
    const m = report.publish.manifest;
    lines.push(`files     ${report.publish.dir}${report.publish.unchanged ? ' (closed period unchanged: nothing rewritten)' : ''}`);
    lines.push(`rows      ${['payments', 'ledger', 'fees', 'balances', 'summary-check', 'exceptions', 'open-items'].map((k) => `${k} ${m.counts[k] ?? 0}`).join(', ')}`);
    const totals = report.result.controlTotals;
    for (const currency of Object.keys(totals).sort()) {
      const t = totals[currency]!;
      const scale = displayScale(currency);
      const show = (v: bigint): string => (scale === null ? `${v} base units` : formatBase(v, scale));
      lines.push(
        `${currency.slice(0, 9).padEnd(9)} ${t.payments} payments (${t.completed_payments} completed): principal ${show(t.principal_base)}, network fees ${show(t.network_fee_base)}, processing fees ${show(t.processing_fee_base)}`,
      );
    }
    // Only error findings fail a run (exit 65); warnings and info notes are listed, not counted as failures.
    const checks = report.result.checks;
    const parts = [`${checks.filter((c) => c.passed).length} passed`];
    for (const [label, severity] of [['failed', 'error'], ['with warnings', 'warning'], ['with notes', 'info']] as const) {
      const these = checks.filter((c) => !c.passed && c.severity === severity);
      if (these.length > 0) parts.push(`${these.length} ${label}: ${these.map((c) => `${c.check_id} (${c.findings})`).join(', ')}`);
    }
    lines.push(`checks    ${parts.join('; ')}`);
  }
  if (outcome.notClosed) lines.push(`period    NOT CLOSED: ${outcome.notClosed}`);
  const findings = report?.result.findings ?? [];
  const count = (severity: string): number => findings.filter((f) => f.severity === severity).length;
  const remarks = [
    ...(count('warning') > 0 ? [`${count('warning')} warning(s)`] : []),
    ...(count('info') > 0 ? [`${count('info')} note(s)`] : []),
  ];
  lines.push(
    outcome.exitCode !== 0
      ? 'result    completed with exceptions: see exceptions.csv / the Exceptions sheet (exit 65)'
      : remarks.length === 0
        ? 'result    complete; every reconciliation check passed (exit 0)'
        : `result    complete; no reconciliation errors — ${remarks.join(' and ')} in exceptions.csv (exit 0)`,
  );
  return lines.join('\n');
}
