/**
 * The Overview's checks block (docs/reports.md "Overview"): how many checks ran and passed, and the
 * checks that found something or could not run, each by what it checks in words — the full list,
 * with check ids, is the Checks sheet (checks-sheet.ts).
 */
import { checksBySeverity } from '../reconcile/tie-out.js';
import { outcomeOf, outcomeWord } from '../reconcile/check-outcome.js';
import type { CheckResult } from '../model/results.js';
import { CHECKS_SHEET, OUTCOME_STYLE } from './checks-sheet.js';
import { headerCells, rowHeight, type OverviewRows } from './overview-layout.js';
import { countCell, HEADER_INDENT_STYLE, INDENT_STYLE, SUBTITLE_STYLE, textCell, wrapped } from './xlsx-cells.js';

/** what it checks spans A–F, its findings G, its result H–I */
const WHAT = [1, 6] as const;
const RESULT = [8, 9] as const;
const WORDS = { PASS: 'passed', FAIL: 'error', WARN: 'warning', NOTE: 'note', 'NOT RUN': 'not run' } as const;

export function writeChecksBlock(out: OverviewRows, checks: readonly CheckResult[]): void {
  const ran = checks.filter((c) => outcomeOf(c) !== 'not_run');
  const passed = checks.filter((c) => outcomeOf(c) === 'passed').length;
  const listed = checksBySeverity(checks).filter((c) => outcomeWord(c) !== 'PASS');
  out.section('Checks');
  const n = (k: number): string => k.toLocaleString('en-US');
  const skipped = checks.length - ran.length;
  out.note(
    `${n(ran.length)} check${ran.length === 1 ? '' : 's'} ran and ${n(passed)} found nothing${skipped > 0 ? `; ${n(skipped)} could not run` : ''}${listed.length === 0 ? '' : '; the others are below'}. Every check and what it tests: sheet ${CHECKS_SHEET}; the findings: sheet Exceptions.`,
    SUBTITLE_STYLE,
  );
  if (listed.length === 0) return;
  const width = out.widths.slice(WHAT[0] - 1, WHAT[1]).reduce((a, b) => a + b, 0);
  out.put([textCell('what was checked', HEADER_INDENT_STYLE), null, null, null, null, null, ...headerCells(['findings'], 0), textCell('result', HEADER_INDENT_STYLE)], undefined, [WHAT, RESULT]);
  for (const c of listed) {
    const outcome = outcomeWord(c);
    const what = outcome === 'NOT RUN' ? `${c.description} — not run: ${c.skipped_reason ?? ''}` : c.description;
    out.put([textCell(what, wrapped(INDENT_STYLE)), null, null, null, null, null, countCell(c.findings), textCell(WORDS[outcome], OUTCOME_STYLE[outcome])], rowHeight([what], [width]), [WHAT, RESULT]);
  }
}
