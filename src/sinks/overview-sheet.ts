/**
 * The Overview sheet: the first tab, written last (xlsx-workbook.ts (3)). A working paper's cover in
 * two pages: what was run over which window, whether the books tie, the roll-forward per currency
 * and (with lots) the crypto assets, the fees the company paid apart from its payers' and in the
 * books' currency as the journal posts them (overview-fees.ts), the checks that found something
 * (overview-checks.ts; every check: the Checks sheet), the control totals, and the rows of every
 * table. The fees by wallet and rail are the Fees sheet's, their charts the Fee charts sheet's. It
 * holds nothing run-specific (no run id, no clock time) so that the same input gives the same
 * bytes; those live in manifest.json. It prints legibly: overview-layout.ts.
 */
import type { Style } from 'exceljs';
import { tieOut } from '../reconcile/tie-out.js';
import { apiCheckWords, type BalanceSummary } from './balance-summary.js';
import type { CloseStatus } from './close-status.js';
import type { CheckResult, ControlTotals } from '../model/results.js';
import { formatBase, groupThousands } from '../money/format.js';
import { displayCurrency, displayScale } from '../money/units.js';
import type { SpecContext } from '../model/column-spec.js';
import type { FeePicture, FeeSplit } from './fees-picture.js';
import type { JournalFees } from '../model/journal-fees.js';
import { writeChecksBlock } from './overview-checks.js';
import { writeCryptoBlock, type CryptoOverview } from './overview-crypto.js';
import { writeFeeBlock } from './overview-fees.js';
import { headerCells, OverviewRows, overviewPageSetup, overviewWidths, rowHeight } from './overview-layout.js';
import { ALERT_STYLE, amountCell, BOLD_STYLE, countCell, FAIL_STYLE, GOOD_STYLE, HEADER_INDENT_STYLE, HEADER_STYLE, INDENT_STYLE, PASS_STYLE, PLAIN_STYLE, SUBTITLE_STYLE, textCell, TITLE_STYLE, wrapped, type Cell } from './xlsx-cells.js';
import type { StreamingWorkbook } from './xlsx-workbook.js';

export const OVERVIEW_SHEET = 'Overview';

export interface OverviewData {
  title: string;
  subtitle: string;
  /** label → value, shown as given (already free of secrets and of run-specific values) */
  parameters: readonly (readonly [string, string])[];
  checks: readonly CheckResult[];
  controlTotals: ControlTotals;
  /** each table: its sheet, its CSV file (null when CSV was not written) and its data rows */
  tables: readonly { sheet: string; file: string | null; rows: number }[];
  fees: FeePicture;
  /** the journal's fee expense per currency (absent: no journal in this run) */
  journalFees?: JournalFees;
  /** balances.csv summed per currency */
  balances: BalanceSummary;
  close: CloseStatus;
  notes: readonly string[];
  /** the crypto subledger's block under the roll-forward (overview-crypto.ts); absent without lots */
  crypto?: CryptoOverview;
}

const VERDICT_GOOD: Partial<Style> = { font: { name: 'Calibri', family: 2, bold: true, size: 14, color: { argb: 'FF006100' } }, fill: { type: 'pattern', pattern: 'solid', fgColor: { argb: 'FFC6EFCE' } } };
const VERDICT_BAD: Partial<Style> = { font: { name: 'Calibri', family: 2, bold: true, size: 14, color: { argb: 'FF9C0006' } }, fill: { type: 'pattern', pattern: 'solid', fgColor: { argb: 'FFFFC7CE' } } };
/** the books tie, but a check did not run: amber, as a warning */
const VERDICT_NOT_RUN: Partial<Style> = { ...VERDICT_GOOD, font: { ...VERDICT_GOOD.font, color: { argb: 'FF9C5700' } }, fill: { type: 'pattern', pattern: 'solid', fgColor: { argb: 'FFFFEB9C' } } };

/** a run fact's value spans B–D, a table's sheet E–F, its CSV file H–I */
const RUN_TABLE_MERGES = [[2, 4], [5, 6], [8, 9]] as const;

/** The longest amount the Overview shows, in characters with separators (it sizes the amount columns). */
function longestAmount(data: OverviewData, ctx: SpecContext): number {
  const shown: { base: bigint; currency: string }[] = [];
  for (const r of data.balances.rows()) shown.push(...[r.opening, r.credits, r.debits, r.closing].map((base) => ({ base, currency: r.currency })));
  for (const [currency, t] of Object.entries(data.controlTotals)) shown.push(...[t.principal_base, t.total_base].map((base) => ({ base, currency })));
  const length = ({ base, currency }: { base: bigint; currency: string }): number => groupThousands(formatBase(base, displayScale(currency, ctx.assetDecimals) ?? 0)).length;
  return Math.max(0, ...shown.map(length));
}

/**
 * The cover a controller reads top-down: does it tie (errors, warnings, info), is the period closed,
 * the roll-forward per currency, the crypto assets, the checks by severity, control totals, fees,
 * the run, the tables.
 */
export async function writeOverviewSheet(workbook: StreamingWorkbook, data: OverviewData, ctx: SpecContext): Promise<void> {
  const widths = overviewWidths(longestAmount(data, ctx));
  const sheet = workbook.addFirstSheet(OVERVIEW_SHEET, {
    views: [{ showGridLines: false }],
    // landscape, one page across, two down for the demo's month, at 8 pt or more (overview-layout.ts)
    pageSetup: overviewPageSetup(widths),
    properties: { tabColor: { argb: 'FF1E3A8A' } },
  });
  sheet.columns = widths.map((width) => ({ width }));
  const out = new OverviewRows(sheet, widths);
  const verdict = tieOut(data.checks);
  const fill = (text: string, style: Partial<Style>): Cell[] => [textCell(text, style), ...widths.slice(1).map(() => textCell('', style))];
  const across = (from: number, to: number): number => widths.slice(from - 1, to).reduce((a, b) => a + b, 0);

  out.put([textCell(data.title, TITLE_STYLE)], 24);
  // the cover names no check id: what each check tests, in words, is under Checks below
  out.put(fill(verdict.wordsHeadline, !verdict.ties ? VERDICT_BAD : verdict.notRun.length > 0 ? VERDICT_NOT_RUN : VERDICT_GOOD), 22);
  const closeStyle = data.close.state === 'not_closed' ? ALERT_STYLE : data.close.state === 'not_a_closing_run' ? BOLD_STYLE : GOOD_STYLE;
  out.note(data.close.words, closeStyle);
  // warnings ask for a look and information notes are never failures: the Checks block says which
  if (!verdict.ties) out.note(`${verdict.errors.toLocaleString('en-US')} error finding(s) on the Exceptions sheet must be resolved before the books tie.`, ALERT_STYLE);
  // a check that did not run is neither passed nor failed: the reader is told where the reasons are
  if (verdict.notRun.length > 0) out.note(`${verdict.notRun.length.toLocaleString('en-US')} check${verdict.notRun.length === 1 ? '' : 's'} could not run: each by what it checks, with its reason, under Checks below, and a row each on the Exceptions sheet.`, ALERT_STYLE);
  out.note(data.subtitle, SUBTITLE_STYLE);

  const splits = writeRollForward(out, data, ctx);

  if (data.crypto !== undefined) writeCryptoBlock(out, data.crypto);

  const feeTieout = data.checks.find((c) => c.check_id === 'journal.fee_tieout');
  writeFeeBlock(out, { splits, ...(data.journalFees === undefined ? {} : { journal: data.journalFees }), ...(feeTieout === undefined ? {} : { feeTieout }) }, ctx);

  writeChecksBlock(out, data.checks);

  out.section('Control totals (display units; exact figures and id hashes in manifest.json)');
  const totalLabels = ['currency', 'payments', 'completed', 'principal', 'network fee', 'processing fee', 'total', 'ledger entries'];
  out.put(headerCells(totalLabels, 1), rowHeight(totalLabels, widths));
  const rank = (c: string): string => (c === 'btc' ? '0' : c === 'usd' ? '1' : `2${c}`);
  for (const currency of Object.keys(data.controlTotals).sort((a, b) => (rank(a) < rank(b) ? -1 : rank(a) > rank(b) ? 1 : 0))) {
    const t = data.controlTotals[currency];
    if (t === undefined) continue;
    out.put([
      textCell(displayCurrency(currency, ctx.assetNames), BOLD_STYLE),
      countCell(t.payments),
      countCell(t.completed_payments),
      amountCell(t.principal_base, currency, ctx),
      amountCell(t.network_fee_base, currency, ctx),
      amountCell(t.processing_fee_base, currency, ctx),
      amountCell(t.total_base, currency, ctx),
      countCell(t.ledger_entries),
    ]);
  }

  // the run's facts (A–D) beside the tables (E–I): two short lists side by side keep the cover to two pages
  out.section('Run, and the tables of this workbook');
  out.put([textCell('run', HEADER_STYLE), textCell('', HEADER_STYLE), textCell('', HEADER_STYLE), textCell('', HEADER_STYLE), textCell('sheet', HEADER_STYLE), null, ...headerCells(['rows'], 0), textCell('CSV file', HEADER_INDENT_STYLE)], undefined, RUN_TABLE_MERGES);
  for (let i = 0; i < Math.max(data.parameters.length, data.tables.length); i++) {
    const [label, value] = data.parameters[i] ?? [null, null];
    const t = data.tables[i];
    const file = t === undefined ? null : (t.file ?? '—');
    const height = rowHeight([label, value, null, null, t?.sheet ?? null, null, null, file], [across(1, 1), across(2, 4), 0, 0, across(5, 6), 0, 0, across(8, 9)]);
    out.put(
      [label === null ? null : textCell(label, wrapped(BOLD_STYLE)), value === null ? null : textCell(value, wrapped(PLAIN_STYLE)), null, null, t === undefined ? null : textCell(t.sheet, wrapped(PLAIN_STYLE)), null, t === undefined ? null : countCell(t.rows), file === null ? null : textCell(file, wrapped(INDENT_STYLE))],
      height,
      RUN_TABLE_MERGES,
    );
  }

  if (data.notes.length > 0) {
    out.section('Notes');
    for (const note of data.notes) out.note(note, PLAIN_STYLE);
  }

  await workbook.commitSheet(sheet);
}

/** The roll-forward per currency, the fees in "out" being those the company paid; returns the fee split the fee block reads. */
function writeRollForward(out: OverviewRows, data: OverviewData, ctx: SpecContext): FeeSplit[] {
  const widths = out.widths;
  out.section('Roll-forward by currency (display units)');
  const rollLabels = ['currency', 'wallets', 'opening', 'in', 'out (incl. fees)', 'of which fees the company paid', 'closing', 'rolls forward', 'checked against the API balance'];
  out.put(headerCells(rollLabels, 1, [8]), rowHeight(rollLabels, widths));
  const rolls = data.balances.rows();
  const splits = data.fees.splits();
  if (rolls.length === 0) out.put([textCell('No wallet balances in scope.')]);
  for (const r of rolls) {
    const split = splits.find((f) => f.currency === r.currency);
    const fees = split === undefined ? 0n : split.companyNetwork + split.companyProcessing;
    const ok = r.opening + r.credits - r.debits === r.closing;
    const words = apiCheckWords(r);
    out.put(
      [
        textCell(displayCurrency(r.currency, ctx.assetNames), BOLD_STYLE),
        countCell(r.wallets),
        amountCell(r.opening, r.currency, ctx),
        amountCell(r.credits, r.currency, ctx),
        amountCell(r.debits, r.currency, ctx),
        amountCell(fees, r.currency, ctx),
        amountCell(r.closing, r.currency, ctx),
        textCell(ok ? 'yes' : 'NO', ok ? PASS_STYLE : FAIL_STYLE),
        textCell(words, wrapped(r.differing > 0 ? ALERT_STYLE : INDENT_STYLE)),
      ],
      rowHeight([null, null, null, null, null, null, null, null, words], widths),
    );
  }
  out.note('opening + in − out = closing per wallet (Balances sheet). Fees the company paid: the network and processing fees of its completed sends, part of "out". A past period is checked by a bridge: closing + movements since = the API balance now.', SUBTITLE_STYLE);
  return splits;
}
