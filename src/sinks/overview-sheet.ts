/**
 * The Overview sheet: the first tab, written last (xlsx-workbook.ts (3)). A working paper's cover:
 * what was run over which window, whether every check passed, the control totals per currency,
 * fees by wallet and rail with in-cell data bars, and the rows of every table. It holds nothing
 * run-specific (no run id, no clock time) so that the same input gives the same bytes; those live
 * in manifest.json.
 */
import type { DataBarRuleType, Worksheet } from 'exceljs';
import type { CheckResult, ControlTotals } from '../reconcile/results.js';
import { displayCurrency } from '../money/units.js';
import type { SpecContext } from './column-spec.js';
import { totalFees, type FeePicture } from './fees-picture.js';
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
  notes: readonly string[];
}

const WIDTHS = [38, 14, 14, 24, 24, 24, 24, 16, 24, 24, 66];
const SHARE_STYLE = { numFmt: '0.0%' };

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

export async function writeOverviewSheet(workbook: StreamingWorkbook, data: OverviewData, ctx: SpecContext): Promise<void> {
  const sheet = workbook.addFirstSheet(OVERVIEW_SHEET, {
    views: [{ showGridLines: false }],
    pageSetup: { orientation: 'landscape', fitToPage: true, fitToWidth: 1, fitToHeight: 0, paperSize: 9 },
    properties: { tabColor: { argb: 'FF1E3A8A' } },
  });
  sheet.columns = WIDTHS.map((width) => ({ width }));

  putRow(sheet, [textCell(data.title, TITLE_STYLE)], 24);
  putRow(sheet, [textCell(data.subtitle, SUBTITLE_STYLE)]);

  section(sheet, 'Run');
  for (const [label, value] of data.parameters) putRow(sheet, [textCell(label, BOLD_STYLE), textCell(value)]);

  section(sheet, 'Checks');
  const failed = data.checks.filter((c) => !c.passed).length;
  putRow(sheet, [textCell(data.checks.length === 0 ? 'No checks were run.' : failed === 0 ? `All ${data.checks.length} checks passed.` : `${failed} of ${data.checks.length} checks failed — see the Exceptions sheet.`, failed === 0 ? GOOD_STYLE : ALERT_STYLE)]);
  putRow(sheet, header(['check', 'result', 'severity', 'findings', 'description'], 3, [4]));
  for (const c of data.checks) {
    putRow(sheet, [textCell(c.check_id), textCell(c.passed ? 'PASS' : 'FAIL', c.passed ? PASS_STYLE : FAIL_STYLE), textCell(c.severity), countCell(c.findings), textCell(c.description, INDENT_STYLE)]);
  }

  section(sheet, 'Control totals (display units)');
  putRow(sheet, header(['currency', 'payments', 'completed', 'principal', 'network fee', 'processing fee', 'total', 'ledger entries', 'ledger credits', 'ledger debits', 'id hash (sha256 of sorted ids)'], 1, [10]));
  for (const currency of Object.keys(data.controlTotals).sort()) {
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
      amountCell(t.ledger_credits_base, currency, ctx),
      amountCell(t.ledger_debits_base, currency, ctx),
      textCell(t.id_hash, INDENT_STYLE),
    ]);
  }

  section(sheet, 'Fees by wallet and rail (completed payments)');
  const groups = data.fees.groups();
  if (groups.length === 0) putRow(sheet, [textCell('No completed payments with fees in this window.')]);
  for (const { currency, bars } of groups) {
    const code = displayCurrency(currency, ctx.assetNames);
    putRow(sheet, header(['wallet', 'rail', 'payments', `network fee (${code})`, `processing fee (${code})`, `total fees (${code})`, 'share'], 2));
    const sum = bars.reduce((s, b) => s + totalFees(b), 0n);
    let firstRow = 0;
    let lastRow = 0;
    let payments = 0;
    for (const bar of bars) {
      const n = putRow(sheet, [
        textCell(bar.wallet_id),
        textCell(bar.rail),
        countCell(bar.payments),
        amountCell(bar.network_fee_base, currency, ctx),
        amountCell(bar.processing_fee_base, currency, ctx),
        amountCell(totalFees(bar), currency, ctx),
        shareCell(totalFees(bar), sum),
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

  section(sheet, 'Tables');
  putRow(sheet, header(['sheet', 'rows', 'CSV file'], 1, [2]));
  for (const t of data.tables) putRow(sheet, [textCell(t.sheet), countCell(t.rows), textCell(t.file ?? '—', INDENT_STYLE)]);

  if (data.notes.length > 0) {
    section(sheet, 'Notes');
    for (const note of data.notes) putRow(sheet, [textCell(note)]);
  }

  await workbook.commitSheet(sheet);
}
