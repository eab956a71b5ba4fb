/**
 * The message's facts as labelled lines, in one order for every human channel (e-mail, Slack, the
 * ping's log body), so a person reads the same thing wherever they look.
 */
import type { RunMessage } from './run-message.js';

export interface SummaryLine {
  label: string;
  value: string;
}

export function summaryLines(m: RunMessage): SummaryLine[] {
  const lines: SummaryLine[] = [
    { label: 'Job', value: `${m.job} ${m.period}${m.window ? ` (${m.window.tz}; ${m.window.from} to ${m.window.to})` : ''}` },
    { label: 'Result', value: `exit ${m.exit_code}: ${m.exit_meaning}` },
    { label: 'Tie-out', value: m.tie_out },
    { label: 'Close', value: m.close },
    { label: 'Findings', value: `${m.counts.errors} error(s), ${m.counts.warnings} warning(s), ${m.counts.notes} note(s)` },
    { label: 'Open items', value: m.open_items === null ? 'unknown (no report)' : `${m.open_items} carried` },
  ];
  if (m.failure) lines.push({ label: 'Failure', value: `${m.failure.type}: ${m.failure.message}` });
  if (m.report) lines.push({ label: 'Report', value: m.report.folder }, { label: 'Manifest sha256', value: m.report.manifest_sha256 ?? 'unavailable' });
  for (const d of m.delivery) lines.push({ label: `Delivery ${d.destination}`, value: `${d.outcome}${d.outcome === 'delivered' ? '' : `: ${d.detail}`}` });
  lines.push({ label: 'Duration', value: formatDuration(m.duration_ms) }, { label: 'Run id', value: m.run_id });
  return lines;
}

/** The exceptions in words, with the count of those not listed. */
export function exceptionTexts(m: RunMessage): string[] {
  const texts = m.exceptions.map((e) => e.text);
  if (m.exceptions_not_listed > 0) texts.push(`… and ${m.exceptions_not_listed} more in exceptions.csv`);
  return texts;
}

export function formatDuration(ms: number): string {
  const seconds = Math.round(ms / 1000);
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  return minutes < 60 ? `${minutes} min ${seconds % 60} s` : `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}
