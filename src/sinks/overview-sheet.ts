/**
 * The Overview sheet: the first tab, written last (xlsx-workbook.ts (3)). A working paper's cover:
 * what was run over which window, whether every check passed, the roll-forward per currency and
 * (with lots) the crypto assets, the checks, the control totals, fees by wallet and rail with
 * in-cell data bars and native charts (fee-charts.ts), and the rows of every table. It holds
 * nothing run-specific (no run id, no clock time) so that the same input gives the same bytes;
 * those live in manifest.json. It prints legibly: overview-layout.ts.
 */
import type { DataBarRuleType, Style } from 'exceljs';
import { checksBySeverity, tieOut } from '../reconcile/tie-out.js';
import { outcomeWord } from '../reconcile/check-outcome.js';
import { apiCheckWords, type BalanceSummary } from './balance-summary.js';
import type { CloseStatus } from './close-status.js';
import type { CheckResult, ControlTotals } from '../model/results.js';
import { formatBase, groupThousands } from '../money/format.js';
import { displayCurrency, displayScale } from '../money/units.js';
import type { SpecContext } from '../model/column-spec.js';
import { totalFees, type FeePicture } from './fees-picture.js';
import { chartParts, FEE_CHARTS_SHEET, type FeeChartPanel } from './fee-charts.js';
import { writeCryptoBlock, type CryptoOverview } from './overview-crypto.js';
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
  /** the fee charts per currency (fee-charts.ts), drawn under the fees table; empty = none */
  chartPanels?: readonly FeeChartPanel[];
  /** balances.csv summed per currency */
  balances: BalanceSummary;
  close: CloseStatus;
  notes: readonly string[];
  /** the crypto subledger's block under the roll-forward (overview-crypto.ts); absent without lots */
  crypto?: CryptoOverview;
}

const SHARE_STYLE = { numFmt: '0.0%' };
const VERDICT_GOOD: Partial<Style> = { font: { name: 'Calibri', family: 2, bold: true, size: 14, color: { argb: 'FF006100' } }, fill: { type: 'pattern', pattern: 'solid', fgColor: { argb: 'FFC6EFCE' } } };
const VERDICT_BAD: Partial<Style> = { font: { name: 'Calibri', family: 2, bold: true, size: 14, color: { argb: 'FF9C0006' } }, fill: { type: 'pattern', pattern: 'solid', fgColor: { argb: 'FFFFC7CE' } } };
/** the books tie, but a check did not run: amber, as a warning */
const VERDICT_NOT_RUN: Partial<Style> = { ...VERDICT_GOOD, font: { ...VERDICT_GOOD.font, color: { argb: 'FF9C5700' } }, fill: { type: 'pattern', pattern: 'solid', fgColor: { argb: 'FFFFEB9C' } } };
const WARN_STYLE: Partial<Style> = { ...PASS_STYLE, font: { ...PASS_STYLE.font, color: { argb: 'FF9C5700' } }, fill: { type: 'pattern', pattern: 'solid', fgColor: { argb: 'FFFFEB9C' } } };
const NOTE_STYLE: Partial<Style> = { ...PASS_STYLE, font: { ...PASS_STYLE.font, color: { argb: 'FF1E3A8A' } }, fill: { type: 'pattern', pattern: 'solid', fgColor: { argb: 'FFDBEAFE' } } };
const SKIP_STYLE: Partial<Style> = { ...PASS_STYLE, font: { ...PASS_STYLE.font, color: { argb: 'FF6B7280' } }, fill: { type: 'pattern', pattern: 'solid', fgColor: { argb: 'FFF3F4F6' } } };
const OUTCOME_STYLE = { PASS: PASS_STYLE, FAIL: FAIL_STYLE, WARN: WARN_STYLE, NOTE: NOTE_STYLE, 'NOT RUN': SKIP_STYLE } as const;
/** rows a chart spans; three charts side by side per currency, in columns A–C, D–F and G–I */
const CHART_ROWS = 16;
const CHART_SLOTS = [0, 3, 6] as const;
const CHART_SLOT_COLUMNS = 3;
/** a check's id spans A–B and its title F–I, both wrapped: a long one neither hides the next cell nor widens the page */
const CHECK_MERGES = [[1, 2], [6, 9]] as const;
/** a fee line's wallet id spans H–I */
const WALLET_ID_MERGE = [[8, 9]] as const;

/** part / whole as a fraction rounded to 4 decimals in bigint (a display ratio, not money). */
function shareCell(part: bigint, whole: bigint): Cell {
  if (whole <= 0n) return { value: null, style: SHARE_STYLE };
  const tenThousandths = (part * 20_000n + whole) / (2n * whole);
  return { value: Number(tenThousandths) / 10_000, style: SHARE_STYLE };
}

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
    // landscape, one page across and as many down as it needs, at 8 pt or more (overview-layout.ts)
    pageSetup: overviewPageSetup(widths),
    properties: { tabColor: { argb: 'FF1E3A8A' } },
  });
  sheet.columns = widths.map((width) => ({ width }));
  const out = new OverviewRows(sheet, widths);
  const verdict = tieOut(data.checks);
  const fill = (text: string, style: Partial<Style>): Cell[] => [textCell(text, style), ...widths.slice(1).map(() => textCell('', style))];
  const across = (from: number, to: number): number => widths.slice(from - 1, to).reduce((a, b) => a + b, 0);

  out.put([textCell(data.title, TITLE_STYLE)], 24);
  out.put(fill(verdict.headline, !verdict.ties ? VERDICT_BAD : verdict.notRun.length > 0 ? VERDICT_NOT_RUN : VERDICT_GOOD), 22);
  const closeStyle = data.close.state === 'not_closed' ? ALERT_STYLE : data.close.state === 'not_a_closing_run' ? BOLD_STYLE : GOOD_STYLE;
  out.note(data.close.words, closeStyle);
  out.note(verdict.ties ? 'Errors stop a tie-out (exit 65); warnings ask for a look; info findings are notes, never failures. Details: the Exceptions sheet.' : `${verdict.errors.toLocaleString('en-US')} error finding(s) on the Exceptions sheet must be resolved before the books tie (exit 65).`, SUBTITLE_STYLE);
  // a check that did not run is neither passed nor failed: the reader is told where the reasons are
  if (verdict.notRun.length > 0) out.note(`Not run: ${verdict.notRun.join(', ')} — each with its reason under Checks below and in exceptions.csv (check.not_run, close.required_check_not_run).`, ALERT_STYLE);
  out.note(data.subtitle, SUBTITLE_STYLE);

  out.section('Roll-forward by currency (display units)');
  const rollLabels = ['currency', 'wallets', 'opening', 'in', 'out (incl. fees)', 'of which fees', 'closing', 'rolls forward', 'checked against the API balance'];
  out.put(headerCells(rollLabels, 1, [8]), rowHeight(rollLabels, widths));
  const rolls = data.balances.rows();
  if (rolls.length === 0) out.put([textCell('No wallet balances in scope.')]);
  for (const r of rolls) {
    const t = data.controlTotals[r.currency];
    const fees = t === undefined ? 0n : t.network_fee_base + t.processing_fee_base;
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
  out.note('opening + in − out = closing per wallet (Balances sheet). Fees: network + processing fees of completed payments, part of "out" for sends. A past period is checked by a bridge: closing + movements since = the API balance now.', SUBTITLE_STYLE);

  if (data.crypto !== undefined) writeCryptoBlock(out, data.crypto);

  out.section('Checks, errors first');
  out.put([textCell('check', HEADER_STYLE), textCell('', HEADER_STYLE), ...headerCells(['result', 'findings', 'severity'], 1, [2]), textCell('what it checks', HEADER_INDENT_STYLE)], undefined, CHECK_MERGES);
  for (const c of checksBySeverity(data.checks)) {
    const outcome = outcomeWord(c);
    const title = outcome === 'NOT RUN' ? `${c.description} — not run: ${c.skipped_reason ?? ''}` : c.description;
    out.put([textCell(c.check_id, wrapped(PLAIN_STYLE)), null, textCell(outcome, OUTCOME_STYLE[outcome]), countCell(c.findings), textCell(c.severity, INDENT_STYLE), textCell(title, wrapped(INDENT_STYLE))], rowHeight([c.check_id, title], [across(1, 2), across(6, 9)]), CHECK_MERGES);
  }

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

  out.section('Fees by wallet and rail (completed payments)');
  const groups = data.fees.groups();
  if (groups.length === 0) out.put([textCell('No completed payments with fees in this window.')]);
  for (const { currency, bars } of groups) {
    const code = displayCurrency(currency, ctx.assetNames);
    const labels = ['wallet', 'rail', 'payments', `network fee (${code})`, `processing fee (${code})`, `total fees (${code})`, 'share', 'wallet id (start)', ''];
    out.put(headerCells(labels, 2, [7]), rowHeight(labels, widths), WALLET_ID_MERGE);
    const sum = bars.reduce((s, b) => s + totalFees(b), 0n);
    let firstRow = 0;
    let lastRow = 0;
    let payments = 0;
    for (const bar of bars) {
      const n = out.put(
        [
          textCell(ctx.walletNames?.get(bar.wallet_id) ?? bar.wallet_id),
          textCell(bar.rail),
          countCell(bar.payments),
          amountCell(bar.network_fee_base, currency, ctx),
          amountCell(bar.processing_fee_base, currency, ctx),
          amountCell(totalFees(bar), currency, ctx),
          shareCell(totalFees(bar), sum),
          // the id's first group tells the wallets apart on paper; the Fees sheet and fees.csv hold it whole
          textCell(`${bar.wallet_id.slice(0, 8)}…`, INDENT_STYLE),
        ],
        undefined,
        WALLET_ID_MERGE,
      );
      if (firstRow === 0) firstRow = n;
      lastRow = n;
      payments += bar.payments;
    }
    const total = amountCell(sum, currency, ctx);
    out.put([textCell(`total ${code}`, BOLD_STYLE), null, countCell(payments), null, null, { value: total.value, style: { ...total.style, font: BOLD_STYLE.font } }, shareCell(sum, sum)]);
    // The picture: a data bar per wallet × rail, scaled per currency (BTC and USD fees are not
    // comparable lengths). Gradient bars need no x14 extension, whose GUIDs would break determinism.
    sheet.addConditionalFormatting({
      ref: `G${firstRow}:G${lastRow}`,
      // exceljs renders `color` though its typings omit it
      rules: [{ type: 'dataBar', priority: 1, gradient: true, cfvo: [{ type: 'num', value: 0 }, { type: 'max' }], color: { argb: 'FF2563EB' } } as DataBarRuleType],
    });
  }

  const panels = data.chartPanels ?? [];
  const bands: number[] = [];
  if (panels.length > 0) {
    // a currency's charts stay on one page: a chart cut by a page break would print in two halves
    out.keepTogether(CHART_ROWS + 4);
    out.section(`Fee charts (the figures behind them: sheet ${FEE_CHARTS_SHEET})`);
    for (const panel of panels) {
      out.keepTogether(CHART_ROWS + 1);
      out.put([textCell(`${displayCurrency(panel.currency, ctx.assetNames)}: by day · by wallet and rail · billed vs computed`, BOLD_STYLE)]);
      const band = out.put([]);
      for (let k = 1; k < CHART_ROWS; k++) out.put([]);
      bands.push(band);
    }
  }

  out.section('Run');
  for (const [label, value] of data.parameters) out.put([textCell(label, BOLD_STYLE), textCell(value, wrapped(PLAIN_STYLE))], rowHeight([null, value], [0, across(2, 9)]), [[2, 9]]);

  out.section('Tables');
  out.put([...headerCells(['sheet', 'rows'], 1), textCell('CSV file', HEADER_INDENT_STYLE)], undefined, [[3, 5]]);
  for (const t of data.tables) out.put([textCell(t.sheet), countCell(t.rows), textCell(t.file ?? '—', INDENT_STYLE)], undefined, [[3, 5]]);

  if (data.notes.length > 0) {
    out.section('Notes');
    for (const note of data.notes) out.note(note, PLAIN_STYLE);
  }

  workbook.addCharts(
    sheet,
    chartParts(panels, (panel, chart) => {
      const fromRow = (bands[panel] as number) - 1;
      const fromCol = CHART_SLOTS[chart] as number;
      return { fromCol, fromRow, toCol: fromCol + CHART_SLOT_COLUMNS, toRow: fromRow + CHART_ROWS - 1 };
    }),
  );
  await workbook.commitSheet(sheet);
}
