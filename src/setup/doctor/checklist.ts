/**
 * The checklist as a person reads it: ✓ or ✗ per line, the fix under each ✗, a count at the end.
 * Lines are scrubbed by the caller's writer: no check prints a secret, and the scrubber makes sure.
 */
import type { CheckLine } from './check.js';

const MARK = { pass: '✓', fail: '✗', skip: '–' } as const;

export function renderCheckLine(line: CheckLine): string[] {
  const head = `  ${MARK[line.status]} ${line.title}${line.status === 'pass' && line.detail === undefined ? '' : `: ${line.detail}`}`;
  return line.status === 'fail' ? [head, `      fix: ${line.fix}`] : [head];
}

export function renderTally(lines: readonly CheckLine[]): string {
  const count = (status: CheckLine['status']): number => lines.filter((l) => l.status === status).length;
  const failed = count('fail');
  const skipped = count('skip');
  const verdict = failed === 0 && skipped === 0 ? "tonight's run should work" : "tonight's run would not work as configured";
  return `${lines.length} checks: ${count('pass')} passed, ${failed} failed${skipped > 0 ? `, ${skipped} skipped` : ''} — ${verdict}`;
}
