/**
 * The closing summary a person reads after a run: where the files are, row counts, a table of
 * control totals per currency, the checks that found something (by severity: only errors make the
 * exit code 65), and the exit code's meaning. Plain text, no secrets by construction (ids,
 * amounts and paths only).
 */
import { formatBase } from '../money/format.js';
import { displayCurrency, displayScale } from '../money/units.js';
import type { PipelineOutcome } from '../jobs/pipeline.js';
import type { CheckResult } from '../reconcile/results.js';

const FILE_ORDER = ['payments', 'ledger', 'fees', 'balances', 'summary-check', 'exceptions', 'open-items'];

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
    lines.push(`rows      ${FILE_ORDER.map((k) => `${k} ${m.counts[k] ?? 0}`).join(', ')}`);
    lines.push('', ...totalsTable(outcome), '');
    lines.push(...checkLines(report.result.checks));
  }
  if (outcome.notClosed) lines.push(`period    NOT CLOSED: ${outcome.notClosed}`);
  const findings = report?.result.findings ?? [];
  const count = (severity: string): number => findings.filter((f) => f.severity === severity).length;
  const remarks = [...(count('warning') > 0 ? [`${count('warning')} warning(s)`] : []), ...(count('info') > 0 ? [`${count('info')} note(s)`] : [])];
  lines.push(
    outcome.exitCode !== 0
      ? 'result    completed with exceptions: see exceptions.csv / the Exceptions sheet (exit 65)'
      : remarks.length === 0
        ? 'result    complete; every reconciliation check passed (exit 0)'
        : `result    complete; no reconciliation errors — ${remarks.join(' and ')} in exceptions.csv (exit 0)`,
  );
  return lines.join('\n');
}

/** Completed payments' sums per currency, in display units (BTC, USD, the asset's decimals). */
function totalsTable(outcome: PipelineOutcome): string[] {
  const report = outcome.report!;
  const totals = report.result.controlTotals;
  const decimals = new Map(report.assets.map((a) => [a.currency, a.decimal_display]));
  const names = new Map(report.assets.map((a) => [a.currency, a.name]));
  const header = ['currency', 'payments', 'completed', 'principal', 'network fees', 'processing fees'];
  const order = (c: string): string => (c === 'btc' ? '0' : c === 'usd' ? '1' : `2${c}`);
  const rows = Object.keys(totals)
    .sort((a, b) => (order(a) < order(b) ? -1 : 1))
    .map((currency) => {
      const t = totals[currency]!;
      const scale = displayScale(currency, decimals);
      const show = (v: bigint): string => (scale === null ? `${v} (base units)` : formatBase(v, scale));
      const code = displayCurrency(currency, names);
      return [code.length > 16 ? `${code.slice(0, 15)}…` : code, String(t.payments), String(t.completed_payments), show(t.principal_base), show(t.network_fee_base), show(t.processing_fee_base)];
    });
  if (rows.length === 0) return ['(no payments in the window)'];
  return renderTable(header, rows);
}

/** Left-aligned first column, right-aligned numbers, two spaces between columns. */
export function renderTable(header: readonly string[], rows: ReadonlyArray<readonly string[]>): string[] {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]): string =>
    cells
      .map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!)))
      .join('  ')
      .trimEnd();
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)];
}

function checkLines(checks: readonly CheckResult[]): string[] {
  const found = checks.filter((c) => c.findings > 0);
  const list = (severity: CheckResult['severity']): string =>
    found
      .filter((c) => c.severity === severity)
      .map((c) => `${c.check_id} (${c.findings})`)
      .join(', ');
  const lines = [`checks    ${checks.length} run, ${checks.filter((c) => c.findings === 0 && !c.skipped_reason).length} clean`];
  const errors = list('error');
  const warnings = list('warning');
  const notes = list('info');
  if (errors) lines.push(`  errors    ${errors}`);
  if (warnings) lines.push(`  warnings  ${warnings}`);
  if (notes) lines.push(`  notes     ${notes}`);
  const skipped = checks.filter((c) => c.skipped_reason);
  if (skipped.length > 0) lines.push(`  skipped   ${skipped.map((c) => `${c.check_id} (${c.skipped_reason})`).join(', ')}`);
  return lines;
}
