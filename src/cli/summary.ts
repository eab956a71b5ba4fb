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
    const failed = report.result.checks.filter((c) => !c.passed);
    lines.push(`checks    ${report.result.checks.length - failed.length} passed, ${failed.length} failed${failed.length ? ': ' + failed.map((c) => `${c.check_id} (${c.findings})`).join(', ') : ''}`);
  }
  if (outcome.notClosed) lines.push(`period    NOT CLOSED: ${outcome.notClosed}`);
  lines.push(outcome.exitCode === 0 ? 'result    complete; every reconciliation check passed (exit 0)' : 'result    completed with exceptions: see exceptions.csv / the Exceptions sheet (exit 65)');
  return lines.join('\n');
}
