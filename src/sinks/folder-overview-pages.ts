/**
 * The pages a workbook gets at publish, once every table is written: the Checks sheet, the Fee
 * charts sheet, the Definitions of every table it holds and the Overview (the first tab). They read what the tables
 * fed while rows streamed through (fees, balances, chart cells), so they can only come last.
 */
import type { CheckResult, ControlTotals } from '../model/results.js';
import type { BalanceSummary } from './balance-summary.js';
import type { CloseStatus } from './close-status.js';
import type { AnyTableSpec } from '../model/column-spec.js';
import { writeChecksSheet } from './checks-sheet.js';
import { writeDefinitionsSheet } from './definitions-sheet.js';
import { writeFeeChartsSheet, type FeeChartData } from './fee-charts.js';
import type { FeePicture } from './fees-picture.js';
import type { CryptoOverview } from './overview-crypto.js';
import type { JournalFees } from '../model/journal-fees.js';
import { writeOverviewSheet } from './overview-sheet.js';
import type { RenderContext } from './render-cells.js';
import type { ReportFolderOptions } from './report-folder-api.js';
import { toolInfo } from './tool-info.js';
import type { StreamingWorkbook } from './xlsx-workbook.js';

export interface OverviewPagesInput {
  options: ReportFolderOptions;
  ctx: RenderContext;
  /** run parameters, already redacted */
  parameters: Record<string, unknown>;
  checks: readonly CheckResult[];
  controlTotals: ControlTotals;
  /** the specs of the tables written, in the order written (Definitions lists them so) */
  specs: readonly AnyTableSpec[];
  /** the Overview's table of contents, in manifest order */
  tables: readonly { sheet: string; file: string | null; rows: number }[];
  fees: FeePicture;
  chartData: FeeChartData;
  balances: BalanceSummary;
  close: CloseStatus;
  notes: readonly string[];
  crypto?: CryptoOverview;
  journalFees?: JournalFees;
}

export async function writeOverviewPages(workbook: StreamingWorkbook, input: OverviewPagesInput): Promise<void> {
  const { options, ctx } = input;
  const title = `${options.job} report · ${options.period}`;
  await writeChecksSheet(workbook, input.checks, title);
  if (options.charts !== false) await writeFeeChartsSheet(workbook, input.fees, input.chartData, { ...ctx, tz: options.window.tz });
  await writeDefinitionsSheet(workbook, input.specs, options.window.tz, []);
  await writeOverviewSheet(
    workbook,
    {
      title,
      subtitle: `Window ${ctx.clock.iso(options.window.from) ?? ''} to ${ctx.clock.iso(options.window.to) ?? ''} (${options.window.tz}), end excluded. Run id, run times and file hashes: manifest.json.`,
      parameters: overviewParameters(options, input.parameters),
      checks: input.checks,
      controlTotals: input.controlTotals,
      tables: input.tables,
      fees: input.fees,
      balances: input.balances,
      close: input.close,
      notes: input.notes,
      ...(input.crypto === undefined ? {} : { crypto: input.crypto }),
      ...(input.journalFees === undefined ? {} : { journalFees: input.journalFees }),
    },
    ctx,
  );
}

/** The Overview's parameter rows: the report's own facts first, then every run parameter by name. */
function overviewParameters(options: ReportFolderOptions, parameters: Record<string, unknown>): [string, string][] {
  const tool = toolInfo();
  const rows: [string, string][] = [
    ['report', options.job],
    ['period', options.period],
    ['window start', options.window.from],
    ['window end (excluded)', options.window.to],
    ['time zone', options.window.tz],
    ['tool', `${tool.name} ${tool.version}`],
  ];
  for (const key of Object.keys(parameters).sort()) {
    const value = parameters[key];
    rows.push([key, typeof value === 'string' ? value : JSON.stringify(value)]);
  }
  return rows;
}
