/**
 * The month-end fee picture as native charts on the sheet "Fee charts": per currency, network and
 * processing fees by day, the same fees by wallet and rail, and the processing fees the service
 * billed beside the ones recomputed from the payments (bills.csv). The charts read the cells of the
 * same sheet, written above them, so what they draw can be checked (and re-charted) in the workbook
 * itself; they left the Overview so that it prints on two pages.
 *
 * Memory and size are bounded by days × currencies and wallets × rails, never by payments: the
 * day sums are accumulated as payments stream past, and a chart by wallet shows the
 * `TOP_WALLETS` largest bars with the rest summed as one "other" bar — past a handful of bars a
 * chart stops being read, and its data block and cached values must not grow with the wallets.
 * The Fees sheet lists every wallet and rail.
 */
import type { Worksheet } from 'exceljs';
import type { PaymentRow } from '../model/rows.js';
import { inFeeSums } from '../reconcile/controls.js';
import type { BillCheckRow } from '../model/results.js';
import { formatBase } from '../money/format.js';
import { displayCurrency, displayScale } from '../money/units.js';
import type { SpecContext } from '../model/column-spec.js';
import { totalFees, type FeeBar, type FeePicture } from './fees-picture.js';
import { barChartXml, rangeRef, type BarChartSpec, type ChartAnchor } from './xlsx-chart-xml.js';
import { amountCell, BOLD_STYLE, HEADER_RIGHT_STYLE, HEADER_STYLE, INDENT_STYLE, putRow, putWrapped, SUBTITLE_STYLE, textCell, TITLE_STYLE } from './xlsx-cells.js';
import { printSetup } from './print-fit.js';
import { columnLetter } from './xlsx-row-xml.js';
import type { StreamingWorkbook } from './xlsx-workbook.js';
import type { ZonedClock } from '../model/zoned-time.js';

export const FEE_CHARTS_SHEET = 'Fee charts';
/** bars per chart by wallet; the rest is one "other" bar (file comment) */
export const TOP_WALLETS = 8;
/** the bill figures that are processing fees (bill-checks.ts) */
const BILLED_FEE_FIGURES: ReadonlySet<string> = new Set(['processing_fee_send', 'processing_fee_receive']);

export const NETWORK_COLOR = '93C5FD';
export const PROCESSING_COLOR = '2563EB';
export const BILLED_COLOR = 'F59E0B';
export const COMPUTED_COLOR = '10B981';

interface DayFees {
  network: bigint;
  processing: bigint;
}

interface BilledFees {
  billed: bigint;
  computed: bigint;
  lines: number;
}

/** Accumulates what the charts need beyond the fee rollup: fees per local day, billed vs computed per wallet. */
export class FeeChartData {
  /** currency → local day (YYYY-MM-DD in the report's zone) → fees */
  private readonly days = new Map<string, Map<string, DayFees>>();
  /** currency → wallet → processing fees billed and recomputed */
  private readonly bills = new Map<string, Map<string, BilledFees>>();

  constructor(private readonly clock: ZonedClock) {}

  /** A payment of payments.csv: counted as fees.csv counts it (completed, every amount known). */
  addPayment(p: PaymentRow): void {
    if (!inFeeSums(p)) return;
    const day = this.clock.iso(p.created_at)?.slice(0, 10);
    if (day === undefined) return;
    const byDay = this.days.get(p.currency) ?? new Map<string, DayFees>();
    this.days.set(p.currency, byDay);
    const fees = byDay.get(day) ?? { network: 0n, processing: 0n };
    fees.network += p.network_fee_base ?? 0n;
    fees.processing += p.processing_fee_base ?? 0n;
    byDay.set(day, fees);
  }

  /** A row of bills.csv: processing-fee figures whose billed and recomputed values are both known. */
  addBill(row: BillCheckRow): void {
    if (!BILLED_FEE_FIGURES.has(row.figure) || row.billed === null || row.computed === null) return;
    const byWallet = this.bills.get(row.currency) ?? new Map<string, BilledFees>();
    this.bills.set(row.currency, byWallet);
    const fees = byWallet.get(row.wallet_id) ?? { billed: 0n, computed: 0n, lines: 0 };
    fees.billed += row.billed;
    fees.computed += row.computed;
    fees.lines += 1;
    byWallet.set(row.wallet_id, fees);
  }

  /** Every day from the first to the last day with fees (days without fees as zero), in order. */
  daysOf(currency: string): [string, DayFees][] {
    const byDay = this.days.get(currency);
    if (byDay === undefined || byDay.size === 0) return [];
    const sorted = [...byDay.keys()].sort();
    const out: [string, DayFees][] = [];
    const last = sorted[sorted.length - 1] as string;
    for (let day = sorted[0] as string; day <= last; day = nextDay(day)) out.push([day, byDay.get(day) ?? { network: 0n, processing: 0n }]);
    return out;
  }

  billedOf(currency: string): [string, BilledFees][] {
    return [...(this.bills.get(currency) ?? new Map<string, BilledFees>()).entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  }

  currencies(): string[] {
    return [...new Set([...this.days.keys(), ...this.bills.keys()])].sort();
  }
}

function nextDay(day: string): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
}

/** The charts of one currency, ready for the Overview to anchor. */
export interface FeeChartPanel {
  currency: string;
  charts: BarChartSpec[];
}

/** The largest `TOP_WALLETS` items by `size` (ties by key), in key order, and the rest summed. */
export function topAndRest<T>(items: readonly T[], size: (t: T) => bigint, key: (t: T) => string, limit = TOP_WALLETS): { top: T[]; rest: T[] } {
  if (items.length <= limit) return { top: [...items], rest: [] };
  const cmpKey = (a: T, b: T): number => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0);
  const ranked = [...items].sort((a, b) => (size(b) > size(a) ? 1 : size(b) < size(a) ? -1 : cmpKey(a, b)));
  const top = new Set(ranked.slice(0, limit));
  return { top: items.filter((t) => top.has(t)), rest: items.filter((t) => !top.has(t)) };
}

/** rows a chart spans; three charts side by side per currency, each as wide as CHART_SLOT_UNITS */
const CHART_ROWS = 16;

/**
 * Writes the "Fee charts" sheet and returns the charts per currency. Its rows: per currency three
 * small blocks — fees by day, fees by wallet and rail, processing fees billed vs computed by
 * wallet — each a title, a header and one row per bar; then per currency a band of rows its charts
 * are drawn over, side by side, each band on a page of its own when printed.
 */
export async function writeFeeChartsSheet(workbook: StreamingWorkbook, picture: FeePicture, data: FeeChartData, ctx: SpecContext & { tz: string }): Promise<FeeChartPanel[]> {
  const sheet = workbook.addSheet(FEE_CHARTS_SHEET, {
    views: [{ showGridLines: false }],
    properties: { tabColor: { argb: 'FF2563EB' } },
    pageSetup: printSetup(WIDTHS, { orientation: 'landscape', printArea: `A:${columnLetter(WIDTHS.length)}` }),
  });
  sheet.columns = WIDTHS.map((width) => ({ width }));
  putRow(sheet, [textCell('Fee charts: the figures, then their charts', TITLE_STYLE)], 22);
  putWrapped(sheet, `Completed payments created in the window, fees in display units; days in ${ctx.tz}. A chart by wallet shows the ${TOP_WALLETS} largest bars and the rest as one "other" bar (the Fees sheet and fees.csv list every wallet).`, WIDTHS, SUBTITLE_STYLE);

  const groups = new Map(picture.groups().map((g) => [g.currency, g.bars]));
  const currencies = [...new Set([...groups.keys(), ...data.currencies()])].sort((a, b) => (rank(a) < rank(b) ? -1 : rank(a) > rank(b) ? 1 : 0));
  const panels: FeeChartPanel[] = [];
  for (const currency of currencies) {
    const scale = displayScale(currency, ctx.assetDecimals) ?? 0;
    const code = displayCurrency(currency, ctx.assetNames);
    const show = (base: bigint): string => formatBase(base, scale);
    const axisFormat = scale === 0 ? '#,##0' : `#,##0.${'0'.repeat(Math.min(scale, 8))}`;
    const charts: BarChartSpec[] = [];

    // a currency whose fees are all zero (a fee-free asset) has nothing to draw
    const days = data.daysOf(currency);
    if (days.some(([, f]) => f.network !== 0n || f.processing !== 0n)) {
      const block = writeBlock(sheet, `${code}: fees by day`, ['day', `network fee (${code})`, `processing fee (${code})`], days.map(([day, f]) => ({ label: day, a: f.network, b: f.processing, note: null })), currency, ctx);
      charts.push(chart(`${code} fees by day`, 'col', 'stacked', block, show, axisFormat, [NETWORK_COLOR, PROCESSING_COLOR]));
    }

    const bars = groups.get(currency) ?? [];
    if (bars.some((b) => totalFees(b) !== 0n)) {
      const label = (b: FeeBar): string => `${walletLabel(b.wallet_id, ctx)} · ${b.rail}`;
      const { top, rest } = topAndRest(bars, totalFees, (b) => `${b.wallet_id}\u0000${b.rail}`);
      const rows: BlockRow[] = top.map((b) => ({ label: label(b), a: b.network_fee_base, b: b.processing_fee_base, note: b.wallet_id }));
      if (rest.length > 0) rows.push({ label: `other (${rest.length} wallet·rail)`, a: sum(rest, (b) => b.network_fee_base), b: sum(rest, (b) => b.processing_fee_base), note: null });
      const block = writeBlock(sheet, `${code}: fees by wallet and rail`, ['wallet · rail', `network fee (${code})`, `processing fee (${code})`, 'wallet id'], rows, currency, ctx);
      charts.push(chart(`${code} fees by wallet and rail`, 'bar', 'stacked', block, show, axisFormat, [NETWORK_COLOR, PROCESSING_COLOR]));
    }

    const billed = data.billedOf(currency);
    if (billed.length > 0) {
      const { top, rest } = topAndRest(billed, ([, f]) => (f.billed > f.computed ? f.billed : f.computed), ([w]) => w);
      const rows: BlockRow[] = top.map(([wallet, f]) => ({ label: walletLabel(wallet, ctx), a: f.billed, b: f.computed, note: wallet }));
      if (rest.length > 0) rows.push({ label: `other (${rest.length} wallets)`, a: sum(rest, ([, f]) => f.billed), b: sum(rest, ([, f]) => f.computed), note: null });
      const block = writeBlock(sheet, `${code}: processing fees billed vs computed (bill lines with both figures)`, ['wallet', `billed (${code})`, `computed (${code})`, 'wallet id'], rows, currency, ctx);
      charts.push(chart(`${code} processing fees: billed vs computed`, 'bar', 'clustered', block, show, axisFormat, [BILLED_COLOR, COMPUTED_COLOR]));
    }
    if (charts.length > 0) panels.push({ currency, charts });
  }
  if (panels.length === 0) putRow(sheet, [textCell('No completed payments with fees and no billed processing fees in this window.')]);
  const bands: number[] = [];
  for (const panel of panels) {
    // a currency's charts on a page of their own: a chart cut by a page break would print in two halves
    const last = putRow(sheet, []);
    (sheet as unknown as { rowBreaks: { id: number; max: number; man: number }[] }).rowBreaks.push({ id: last, max: 16383, man: 1 });
    putRow(sheet, [textCell(`${displayCurrency(panel.currency, ctx.assetNames)}: by day · by wallet and rail · billed vs computed`, BOLD_STYLE)]);
    bands.push(putRow(sheet, []));
    for (let k = 1; k < CHART_ROWS; k++) putRow(sheet, []);
  }
  workbook.addCharts(
    sheet,
    chartParts(panels, (panel, chart) => {
      const fromRow = (bands[panel] as number) - 1;
      const [fromCol, toCol] = CHART_SLOTS[chart] as [number, number];
      return { fromCol, fromRow, toCol, toRow: fromRow + CHART_ROWS - 1 };
    }),
  );
  await workbook.commitSheet(sheet);
  return panels;
}

/** label, two amounts, the wallet id (which runs into the last column): 134 units, one landscape page across (print-fit.ts) */
const WIDTHS = [34, 20, 20, 20, 40];
/** the columns each of a currency's three charts spans, [from, to) 0-based: A–B, C–D and E (54, 40 and 40 units) */
const CHART_SLOTS = [[0, 2], [2, 4], [4, 5]] as const;

const rank = (c: string): string => (c === 'btc' ? '0' : c === 'usd' ? '1' : `2${c}`);

function sum<T>(items: readonly T[], get: (t: T) => bigint): bigint {
  return items.reduce((s, t) => s + get(t), 0n);
}

function walletLabel(walletId: string, ctx: SpecContext): string {
  const name = ctx.walletNames?.get(walletId);
  return name === undefined ? `${walletId.slice(0, 8)}…` : name;
}

interface BlockRow {
  label: string;
  a: bigint;
  b: bigint;
  note: string | null;
}

interface Block {
  header: number;
  first: number;
  last: number;
  labels: string[];
  headers: [string, string];
  a: bigint[];
  b: bigint[];
}

function writeBlock(sheet: Worksheet, title: string, headers: readonly string[], rows: readonly BlockRow[], currency: string, ctx: SpecContext): Block {
  putRow(sheet, []);
  putRow(sheet, [textCell(title, BOLD_STYLE)]);
  const header = putRow(sheet, headers.map((h, i) => textCell(h, i === 0 || i === 3 ? HEADER_STYLE : HEADER_RIGHT_STYLE)));
  let first = 0;
  let last = 0;
  const labels: string[] = [];
  for (const r of rows) {
    const label = textCell(r.label);
    const n = putRow(sheet, [label, amountCell(r.a, currency, ctx), amountCell(r.b, currency, ctx), r.note === null ? null : textCell(r.note, INDENT_STYLE)]);
    if (first === 0) first = n;
    last = n;
    labels.push(String(label.value));
  }
  return { header, first, last, labels, headers: [headers[1] as string, headers[2] as string], a: rows.map((r) => r.a), b: rows.map((r) => r.b) };
}

function chart(title: string, direction: 'col' | 'bar', grouping: 'stacked' | 'clustered', block: Block, show: (base: bigint) => string, numberFormat: string, colors: [string, string]): BarChartSpec {
  const cells = (col: number): string => rangeRef(FEE_CHARTS_SHEET, col, block.first, block.last);
  return {
    title,
    direction,
    grouping,
    numberFormat,
    categories: { ref: cells(0), values: block.labels },
    series: [
      { name: { ref: rangeRef(FEE_CHARTS_SHEET, 1, block.header), values: [block.headers[0]] }, values: { ref: cells(1), values: block.a.map(show) }, color: colors[0] },
      { name: { ref: rangeRef(FEE_CHARTS_SHEET, 2, block.header), values: [block.headers[1]] }, values: { ref: cells(2), values: block.b.map(show) }, color: colors[1] },
    ],
  };
}

/** The chart parts of the panels, each at its anchor. */
export function chartParts(panels: readonly FeeChartPanel[], anchorOf: (panel: number, chart: number) => ChartAnchor): { anchor: ChartAnchor; xml: string }[] {
  return panels.flatMap((p, i) => p.charts.map((c, k) => ({ anchor: anchorOf(i, k), xml: barChartXml(c) })));
}
