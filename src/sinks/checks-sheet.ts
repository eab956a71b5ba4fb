/**
 * The Checks sheet (docs/reports.md "Checks"): every check the run made, errors first, with its
 * result, its findings, its severity, what it tests and its id (the id exceptions.csv and
 * manifest.json name it by). The Overview names only the checks that found something, in words;
 * the whole list — mostly checks that passed — is here, so the cover stays two pages.
 */
import type { Style } from 'exceljs';
import { checksBySeverity } from '../reconcile/tie-out.js';
import { outcomeWord } from '../reconcile/check-outcome.js';
import type { CheckResult } from '../model/results.js';
import { rowHeight } from './overview-layout.js';
import { printSetup } from './print-fit.js';
import { columnLetter } from './xlsx-row-xml.js';
import { FAIL_STYLE, HEADER_INDENT_STYLE, INDENT_STYLE, PASS_STYLE, putRow, putWrapped, SUBTITLE_STYLE, textCell, TITLE_STYLE, topAligned, wrapped, countCell } from './xlsx-cells.js';
import type { StreamingWorkbook } from './xlsx-workbook.js';
import { headerCells } from './overview-layout.js';

export const CHECKS_SHEET = 'Checks';

const WARN_STYLE: Partial<Style> = { ...PASS_STYLE, font: { ...PASS_STYLE.font, color: { argb: 'FF9C5700' } }, fill: { type: 'pattern', pattern: 'solid', fgColor: { argb: 'FFFFEB9C' } } };
const NOTE_STYLE: Partial<Style> = { ...PASS_STYLE, font: { ...PASS_STYLE.font, color: { argb: 'FF1E3A8A' } }, fill: { type: 'pattern', pattern: 'solid', fgColor: { argb: 'FFDBEAFE' } } };
const SKIP_STYLE: Partial<Style> = { ...PASS_STYLE, font: { ...PASS_STYLE.font, color: { argb: 'FF6B7280' } }, fill: { type: 'pattern', pattern: 'solid', fgColor: { argb: 'FFF3F4F6' } } };
export const OUTCOME_STYLE = { PASS: PASS_STYLE, FAIL: FAIL_STYLE, WARN: WARN_STYLE, NOTE: NOTE_STYLE, 'NOT RUN': SKIP_STYLE } as const;

/** what it tests (wraps), result, findings, severity, the check's id: one landscape page across at 8 pt (print-fit.ts) */
const WIDTHS = [62, 10, 10, 10, 38];

export async function writeChecksSheet(workbook: StreamingWorkbook, checks: readonly CheckResult[], title: string): Promise<void> {
  const sheet = workbook.addSheet(CHECKS_SHEET, {
    views: [{ showGridLines: false, state: 'frozen', ySplit: 3 }],
    pageSetup: printSetup(WIDTHS, { orientation: 'landscape', titleRows: '3:3', printArea: `A:${columnLetter(WIDTHS.length)}` }),
  });
  sheet.columns = WIDTHS.map((width) => ({ width }));
  putRow(sheet, [textCell(`Checks · ${title}`, TITLE_STYLE)], 22);
  putWrapped(sheet, 'Every check the run made, errors first. PASS: it found nothing; FAIL: error findings, which stop the books from tying; WARN: warnings, which ask for a look; NOTE: information, never a failure; NOT RUN: it could not run, and why (neither passed nor failed). The findings themselves: the Exceptions sheet, by check id.', WIDTHS, SUBTITLE_STYLE);
  putRow(sheet, [textCell('what it checks', HEADER_INDENT_STYLE), ...headerCells(['result', 'findings', 'severity'], 1, [0, 2]), textCell('check id', HEADER_INDENT_STYLE)]);
  for (const c of checksBySeverity(checks)) {
    const outcome = outcomeWord(c);
    const what = outcome === 'NOT RUN' ? `${c.description} — not run: ${c.skipped_reason ?? ''}` : c.description;
    const height = rowHeight([what, null, null, null, c.check_id], WIDTHS);
    const top = (style: Partial<Style>): Partial<Style> => (height > 15 ? topAligned(style) : style);
    putRow(sheet, [textCell(what, top(wrapped(INDENT_STYLE))), textCell(outcome, top(OUTCOME_STYLE[outcome])), countCell(c.findings), textCell(c.severity, top(INDENT_STYLE)), textCell(c.check_id, top(wrapped(INDENT_STYLE)))], height);
  }
  await workbook.commitSheet(sheet);
}
