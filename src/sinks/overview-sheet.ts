/**
 * The Overview sheet: the first tab, written last (xlsx-workbook.ts (3)). A working paper's cover:
 * what was run over which window, whether every check passed, the control totals per currency,
 * fees by wallet and rail with in-cell data bars and native charts (fee-charts.ts), and the rows
 * of every table. It holds nothing
 * run-specific (no run id, no clock time) so that the same input gives the same bytes; those live
 * in manifest.json.
 */
import type { DataBarRuleType, Style, Worksheet } from 'exceljs';
import { checkOutcome, checksBySeverity, tieOut } from '../reconcile/tie-out.js';
import { apiCheckWords, type BalanceSummary } from './balance-summary.js';
import type { CloseStatus } from './close-status.js';
import type { CheckResult, ControlTotals } from '../model/results.js';
import { displayCurrency } from '../money/units.js';
import type { SpecContext } from './column-spec.js';
import { totalFees, type FeePicture } from './fees-picture.js';
import { chartParts, FEE_CHARTS_SHEET, type FeeChartPanel } from './fee-charts.js';
import {
  ALERT_STYLE,
  amountCell,
  BOLD_STYLE,
  countCell,
  FAIL_STYLE,
  GOOD_STYLE,
  HEADER_INDENT_STYLE,
  HEADER_RIGHT_STYLE,
  HEADER_STYLE,
  INDENT_STYLE,
  PASS_STYLE,
  putRow,
  SECTION_STYLE,
  SUBTITLE_STYLE,
  textCell,
  TITLE_STYLE,
  type Cell,
} from './xlsx-cells.js';
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
}

// A: labels and ids; B–H: numbers; I: long text (wallet ids, check titles overflow to the right)
const WIDTHS = [34, 12, 22, 22, 22, 22, 22, 14, 44];
const SHARE_STYLE = { numFmt: '0.0%' };
const VERDICT_GOOD: Partial<Style> = { font: { name: 'Calibri', family: 2, bold: true, size: 14, color: { argb: 'FF006100' } }, fill: { type: 'pattern', pattern: 'solid', fgColor: { argb: 'FFC6EFCE' } } };
const VERDICT_BAD: Partial<Style> = { font: { name: 'Calibri', family: 2, bold: true, size: 14, color: { argb: 'FF9C0006' } }, fill: { type: 'pattern', pattern: 'solid', fgColor: { argb: 'FFFFC7CE' } } };
const WARN_STYLE: Partial<Style> = { ...PASS_STYLE, font: { ...PASS_STYLE.font, color: { argb: 'FF9C5700' } }, fill: { type: 'pattern', pattern: 'solid', fgColor: { argb: 'FFFFEB9C' } } };
const NOTE_STYLE: Partial<Style> = { ...PASS_STYLE, font: { ...PASS_STYLE.font, color: { argb: 'FF1E3A8A' } }, fill: { type: 'pattern', pattern: 'solid', fgColor: { argb: 'FFDBEAFE' } } };
const SKIP_STYLE: Partial<Style> = { ...PASS_STYLE, font: { ...PASS_STYLE.font, color: { argb: 'FF6B7280' } }, fill: { type: 'pattern', pattern: 'solid', fgColor: { argb: 'FFF3F4F6' } } };
const OUTCOME_STYLE = { PASS: PASS_STYLE, FAIL: FAIL_STYLE, WARN: WARN_STYLE, NOTE: NOTE_STYLE, SKIPPED: SKIP_STYLE } as const;
/** rows a chart spans; three charts side by side per currency, in columns A–C, D–F and G–I */
const CHART_ROWS = 16;
const CHART_SLOTS = [0, 3, 6] as const;
const CHART_SLOT_COLUMNS = 3;

/** part / whole as a fraction rounded to 4 decimals in bigint (a display ratio, not money). */
function shareCell(part: bigint, whole: bigint): Cell {
  if (whole <= 0n) return { value: null, style: SHARE_STYLE };
  const tenThousandths = (part * 20_000n + whole) / (2n * whole);
  return { value: Number(tenThousandths) / 10_000, style: SHARE_STYLE };
}

/** A header row; labels of number columns (from index `numbersFrom`, except `textAt`) are right-aligned over their numbers. */
function header(labels: readonly string[], numbersFrom = labels.length, textAt: readonly number[] = []): Cell[] {
  return labels.map((l, i) => textCell(l, textAt.includes(i) ? HEADER_INDENT_STYLE : i >= numbersFrom ? HEADER_RIGHT_STYLE : HEADER_STYLE));
}

function section(sheet: Worksheet, title: string): void {
  putRow(sheet, []);
  putRow(sheet, [textCell(title, SECTION_STYLE), ...WIDTHS.slice(1).map(() => textCell('', SECTION_STYLE))], 20);
}

/**
 * The cover a controller reads top-down: does it tie (errors, warnings, info), is the period closed,
 * the roll-forward per currency, the checks by severity, control totals, fees, the run, the tables.
 */
export async function writeOverviewSheet(workbook: StreamingWorkbook, data: OverviewData, ctx: SpecContext): Promise<void> {
  const sheet = workbook.addFirstSheet(OVERVIEW_SHEET, {
    views: [{ showGridLines: false }],
    // one page: a cover is read and signed as a whole; portrait, because it is long rather than wide
    pageSetup: { orientation: 'portrait', fitToPage: true, fitToWidth: 1, fitToHeight: 1, paperSize: 9, margins: { left: 0.4, right: 0.4, top: 0.5, bottom: 0.5, header: 0.3, footer: 0.3 } },
    properties: { tabColor: { argb: 'FF1E3A8A' } },
  });
  sheet.columns = WIDTHS.map((width) => ({ width }));
  const verdict = tieOut(data.checks);
  const fill = (text: string, style: Partial<Style>): Cell[] => [textCell(text, style), ...WIDTHS.slice(1).map(() => textCell('', style))];

  putRow(sheet, [textCell(data.title, TITLE_STYLE)], 24);
  putRow(sheet, fill(verdict.headline, verdict.ties ? VERDICT_GOOD : VERDICT_BAD), 22);
  const closeStyle = data.close.state === 'not_closed' ? ALERT_STYLE : data.close.state === 'not_a_closing_run' ? BOLD_STYLE : GOOD_STYLE;
  putRow(sheet, [textCell(data.close.words, closeStyle)]);
  putRow(sheet, [textCell(verdict.ties ? 'Errors stop a tie-out (exit 65); warnings ask for a look; info findings are notes, never failures. Details: the Exceptions sheet.' : `${verdict.errors.toLocaleString('en-US')} error finding(s) on the Exceptions sheet must be resolved before the books tie (exit 65).`, SUBTITLE_STYLE)]);
  putRow(sheet, [textCell(data.subtitle, SUBTITLE_STYLE)]);

  section(sheet, 'Roll-forward by currency (display units)');
  putRow(sheet, header(['currency', 'wallets', 'opening', 'in', 'out (incl. fees)', 'of which fees', 'closing', 'rolls forward', 'checked against the API balance'], 1, [8]));
  const rolls = data.balances.rows();
  if (rolls.length === 0) putRow(sheet, [textCell('No wallet balances in scope.')]);
  for (const r of rolls) {
    const t = data.controlTotals[r.currency];
    const fees = t === undefined ? 0n : t.network_fee_base + t.processing_fee_base;
    const ok = r.opening + r.credits - r.debits === r.closing;
    putRow(sheet, [
      textCell(displayCurrency(r.currency, ctx.assetNames), BOLD_STYLE),
      countCell(r.wallets),
      amountCell(r.opening, r.currency, ctx),
      amountCell(r.credits, r.currency, ctx),
      amountCell(r.debits, r.currency, ctx),
      amountCell(fees, r.currency, ctx),
      amountCell(r.closing, r.currency, ctx),
      textCell(ok ? 'yes' : 'NO', ok ? PASS_STYLE : FAIL_STYLE),
      textCell(apiCheckWords(r), r.differing > 0 ? ALERT_STYLE : INDENT_STYLE),
    ]);
  }
  putRow(sheet, [textCell('opening + in − out = closing per wallet (Balances sheet). Fees: network + processing fees of completed payments, part of "out" for sends. A past period is checked by a bridge: closing + movements since = the API balance now.', SUBTITLE_STYLE)]);

  section(sheet, 'Checks, errors first');
  putRow(sheet, header(['check', 'result', 'findings', 'severity', 'what it checks'], 2, [3, 4]));
  for (const c of checksBySeverity(data.checks)) {
    const outcome = checkOutcome(c);
    putRow(sheet, [textCell(c.check_id), textCell(outcome, OUTCOME_STYLE[outcome]), countCell(c.findings), textCell(c.severity, INDENT_STYLE), textCell(c.skipped_reason ? `${c.description} — skipped: ${c.skipped_reason}` : c.description, INDENT_STYLE)]);
  }

  section(sheet, 'Control totals (display units; exact figures and id hashes in manifest.json)');
  putRow(sheet, header(['currency', 'payments', 'completed', 'principal', 'network fee', 'processing fee', 'total', 'ledger entries'], 1));
  const rank = (c: string): string => (c === 'btc' ? '0' : c === 'usd' ? '1' : `2${c}`);
  for (const currency of Object.keys(data.controlTotals).sort((a, b) => (rank(a) < rank(b) ? -1 : rank(a) > rank(b) ? 1 : 0))) {
    const t = data.controlTotals[currency];
    if (t === undefined) continue;
    putRow(sheet, [
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

  section(sheet, 'Fees by wallet and rail (completed payments)');
  const groups = data.fees.groups();
  if (groups.length === 0) putRow(sheet, [textCell('No completed payments with fees in this window.')]);
  for (const { currency, bars } of groups) {
    const code = displayCurrency(currency, ctx.assetNames);
    putRow(sheet, header(['wallet', 'rail', 'payments', `network fee (${code})`, `processing fee (${code})`, `total fees (${code})`, 'share', '', 'wallet id'], 2, [8]));
    const sum = bars.reduce((s, b) => s + totalFees(b), 0n);
    let firstRow = 0;
    let lastRow = 0;
    let payments = 0;
    for (const bar of bars) {
      const n = putRow(sheet, [
        textCell(ctx.walletNames?.get(bar.wallet_id) ?? bar.wallet_id),
        textCell(bar.rail),
        countCell(bar.payments),
        amountCell(bar.network_fee_base, currency, ctx),
        amountCell(bar.processing_fee_base, currency, ctx),
        amountCell(totalFees(bar), currency, ctx),
        shareCell(totalFees(bar), sum),
        null,
        textCell(bar.wallet_id, INDENT_STYLE),
      ]);
      if (firstRow === 0) firstRow = n;
      lastRow = n;
      payments += bar.payments;
    }
    const total = amountCell(sum, currency, ctx);
    putRow(sheet, [textCell(`total ${code}`, BOLD_STYLE), null, countCell(payments), null, null, { value: total.value, style: { ...total.style, font: BOLD_STYLE.font } }, shareCell(sum, sum)]);
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
    section(sheet, `Fee charts (the figures behind them: sheet ${FEE_CHARTS_SHEET})`);
    for (const panel of panels) {
      putRow(sheet, [textCell(`${displayCurrency(panel.currency, ctx.assetNames)}: by day · by wallet and rail · billed vs computed`, BOLD_STYLE)]);
      const band = putRow(sheet, []);
      for (let k = 1; k < CHART_ROWS; k++) putRow(sheet, []);
      bands.push(band);
    }
  }

  section(sheet, 'Run');
  for (const [label, value] of data.parameters) putRow(sheet, [textCell(label, BOLD_STYLE), textCell(value)]);

  section(sheet, 'Tables');
  putRow(sheet, header(['sheet', 'rows', 'CSV file'], 1, [2]));
  for (const t of data.tables) putRow(sheet, [textCell(t.sheet), countCell(t.rows), textCell(t.file ?? '—', INDENT_STYLE)]);

  if (data.notes.length > 0) {
    section(sheet, 'Notes');
    for (const note of data.notes) putRow(sheet, [textCell(note)]);
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
