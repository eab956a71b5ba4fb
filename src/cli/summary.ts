/**
 * The closing summary a person reads after a run: where the files are, row counts, a table of
 * control totals per currency, the checks that found something (by severity: only errors make the
 * exit code 65), and the exit code's meaning. Plain text, no secrets by construction (ids,
 * amounts and paths only).
 */
import { formatBase, groupThousands } from '../money/format.js';
import { tieOut, type TieOut } from '../reconcile/tie-out.js';
import { checksNotRun, outcomeOf } from '../reconcile/check-outcome.js';
import { displayCurrency, displayScale } from '../money/units.js';
import type { PipelineOutcome } from '../jobs/pipeline.js';
import type { CheckResult } from '../model/results.js';

const FILE_ORDER = ['payments', 'ledger', 'fees', 'balances', 'summary-check', 'exceptions', 'open-items'];

export function formatSummary(outcome: PipelineOutcome): string {
  const lines: string[] = [];
  const report = outcome.report;
  if (outcome.pull) {
    const rows = (kind: string): number => outcome.pull!.streams.filter((s) => s.stream.startsWith(kind)).reduce((n, s) => n + s.rows, 0);
    lines.push(`pulled    ${n(rows('payments'))} payments, ${n(rows('ledger'))} ledger entries, ${n(rows('summary'))} summary buckets` + (outcome.pull.duplicates ? ` (${n(outcome.pull.duplicates)} duplicates dropped)` : ''));
    lines.push('          (what the API returned into the snapshot: the ledger back to each wallet\'s first entry, open payments of earlier windows)');
  }
  if (report) {
    const m = report.publish.manifest;
    lines.push(`files     ${report.publish.dir}${report.publish.unchanged ? ' (closed period unchanged: nothing rewritten)' : ''}`);
    lines.push(`rows      ${FILE_ORDER.map((k) => `${k} ${n(m.counts[k] ?? 0)}`).join(', ')}`);
    lines.push('          (rows: what falls in the window and is written to the files)');
    lines.push('', ...totalsTable(outcome), '');
    lines.push(...checkLines(report.result.checks));
  }
  const verdict = report ? tieOut(report.result.checks) : null;
  // the subledger's one line, as on the Overview (docs/lots.md): what a month-end with lots closed
  if (report?.lots) lines.push(`lots      ${report.lots.overview.replace(/^Lots: /, '')}`);
  if (verdict) lines.push(`tie-out   ${verdict.headline}`);
  if (report) lines.push(`period    ${report.close.words}`);
  lines.push(resultLine(outcome, verdict));
  return lines.join('\n');
}

/** Why the exit code is what it is, in the same words as the Overview. */
function resultLine(outcome: PipelineOutcome, verdict: TieOut | null): string {
  if (verdict === null) return `result    ${outcome.exitCode === 0 ? 'complete' : 'completed with exceptions'} (exit ${outcome.exitCode})`;
  if (!verdict.ties) return `result    does not tie: ${n(verdict.errors)} error finding(s) in exceptions.csv / the Exceptions sheet (exit 65)`;
  if (outcome.notClosed) return `result    ties out, but the period is NOT CLOSED: open items remain, listed in open-items.csv (exit 65 — from open items, not from errors)`;
  const remarks = [...(verdict.warnings > 0 ? [`${n(verdict.warnings)} warning(s)`] : []), ...(verdict.info > 0 ? [`${n(verdict.info)} info`] : [])];
  // "every check passed" only when every check ran: a check that did not run is never counted as passed
  const notRun = verdict.notRun.length > 0 ? `; ${n(verdict.notRun.length)} check(s) not run (listed above)` : '';
  return remarks.length === 0 ? 'result    complete; every reconciliation check passed (exit 0)' : `result    complete; no reconciliation errors — ${remarks.join(' and ')} in exceptions.csv${notRun} (exit 0)`;
}

const n = (v: number): string => v.toLocaleString('en-US');

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
      const show = (v: bigint): string => (scale === null ? `${groupThousands(v.toString())} (base units)` : groupThousands(formatBase(v, scale)));
      const code = displayCurrency(currency, names);
      return [code.length > 16 ? `${code.slice(0, 15)}…` : code, n(t.payments), n(t.completed_payments), show(t.principal_base), show(t.network_fee_base), show(t.processing_fee_base)];
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

/** passed, failed (by severity: errors first) and not run, each not-run check with its reason (check-outcome.ts). */
function checkLines(checks: readonly CheckResult[]): string[] {
  const found = checks.filter((c) => outcomeOf(c) === 'failed');
  const notRun = checksNotRun(checks);
  const list = (severity: CheckResult['severity']): string =>
    found
      .filter((c) => c.severity === severity)
      .map((c) => `${c.check_id} (${n(c.findings)})`)
      .join(', ');
  const passed = checks.filter((c) => outcomeOf(c) === 'passed').length;
  const lines = [`checks    ${n(checks.length)}: ${n(passed)} passed, ${n(found.length)} with findings, ${n(notRun.length)} not run`];
  const errors = list('error');
  const warnings = list('warning');
  const info = list('info');
  if (errors) lines.push(`  error     ${errors}`);
  if (warnings) lines.push(`  warning   ${warnings}`);
  if (info) lines.push(`  info      ${info}`);
  // one line per reason: ten bill checks not run for one reason are one line
  const byReason = new Map<string, string[]>();
  for (const c of notRun) byReason.set(c.skipped_reason ?? '', [...(byReason.get(c.skipped_reason ?? '') ?? []), c.check_id]);
  for (const [reason, ids] of byReason) lines.push(`  not run   ${ids.join(', ')}: ${reason}`);
  return lines;
}
