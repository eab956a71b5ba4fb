/**
 * The "Crypto assets" sheet: the disclosure note (crypto-assets-note.ts) laid out for a controller,
 * top to bottom — title, period, as-of instant, books currency and where the fair value comes
 * from; holdings per asset; the fair-value roll-forward with its arithmetic as formulas and the
 * units' roll-forward beside it; realized gains apart; the method and holdings per wallet;
 * definitions. crypto-assets.csv keeps the machine names, one row per currency (docs/reports.md
 * says which file is for whom).
 *
 * Grid: column A holds the labels; the data columns after it hold, per block, one column per asset,
 * then the total in the books' currency, then (in the roll-forward) each asset's units. Every
 * total, difference and closing line is a formula over the cells above it with its exact result
 * cached, so the sheet recomputes and a reader that does not recalculate shows the same figures.
 */
import type { Style, Worksheet } from 'exceljs';
import { formatBase, groupThousands } from '../../money/format.js';
import { NARROW_MARGINS, printSetup, widthUnitsPerPage } from '../../sinks/print-fit.js';
import { decimalStyle } from '../../sinks/render-cells.js';
import { BOLD_STYLE, HEADER_RIGHT_STYLE, HEADER_STYLE, INDENT_STYLE, putRow, putWrapped, SECTION_STYLE, SUBTITLE_STYLE, textCell, TITLE_STYLE, topAligned, wrapped, type Cell } from '../../sinks/xlsx-cells.js';
import type { StreamingWorkbook } from '../../sinks/xlsx-workbook.js';
import type { CryptoOverview } from '../../sinks/overview-crypto.js';
import { columnLetter } from '../../sinks/xlsx-row-xml.js';
import { LINE_PT, wrappedLines } from '../../sinks/print-fit.js';
import type { CryptoAssetsNote, NoteAsset } from '../crypto-assets-note.js';
import { dayWords, definitions, roundingWords } from './crypto-assets-words.js';

export const CRYPTO_ASSETS_SHEET = 'Crypto assets';

const LABEL_WIDTH = 27;
const MIN_DATA_WIDTH = 15;
/** data columns the per-wallet block needs: asset, method (since), lots, units, cost, fair value, unrealized */
const WALLET_COLUMNS = 7;
const COUNT: Partial<Style> = { numFmt: '#,##0' };

/** A books-currency figure and its formula: the result cached, or an empty (unknown) cell when a figure is unknown. */
type Figure = bigint | null;

export async function writeCryptoAssetsSheet(workbook: StreamingWorkbook, note: CryptoAssetsNote): Promise<void> {
  const n = note.assets.length;
  const width = dataWidth(note);
  const widths = [LABEL_WIDTH, ...Array.from({ length: Math.max(2 * n + 1, WALLET_COLUMNS) }, () => width)];
  const sheet = workbook.addSheet(CRYPTO_ASSETS_SHEET, {
    views: [{ showGridLines: false }],
    properties: { tabColor: { argb: 'FF1E3A8A' } },
    pageSetup: printSetup(widths, { orientation: 'landscape', printArea: `A:${columnLetter(widths.length)}` }),
  });
  sheet.columns = widths.map((w) => ({ width: w }));
  const g = new Grid(sheet, note.minorUnits);
  if (n === 0) {
    g.wrap(`Crypto assets — ${note.entity}: no crypto asset was held or moved in the tracked wallets from ${dayWords(note.firstDay)} to ${dayWords(note.lastDay)}.`, widths, BOLD_STYLE);
    await workbook.commitSheet(sheet);
    return;
  }
  const books = note.booksCurrency;
  const col = (k: number): string => columnLetter(k + 2); // data column k (0-based): B, C, ...
  const unitsAt = (k: number): number => n + 1 + k; // asset k's units column in the roll-forward
  const sum = (values: readonly Figure[]): Figure => (values.some((v) => v === null) ? null : values.reduce<bigint>((a, v) => a + (v as bigint), 0n));
  const units = (v: bigint, a: NoteAsset): Cell => ({ value: Number(formatBase(v, a.unitScale)), style: decimalStyle(a.unitScale) });
  const section = (title: string): void => {
    g.put([]);
    g.put(widths.map((_, i) => textCell(i === 0 ? title : '', SECTION_STYLE)), 20);
  };
  /** a header row: labels over numbers right-aligned, the first `texts` of `rest` (over text) left-aligned */
  const header = (first: string, rest: readonly string[], texts = 0): void => {
    g.put([textCell(first, HEADER_STYLE), ...rest.map((h, i) => textCell(h, wrapped(i < texts ? HEADER_STYLE : HEADER_RIGHT_STYLE)))], Math.max(...rest.map((h) => wrappedLines(h, width))) * LINE_PT);
  };
  /** one figure per asset and their total (a SUM formula); `extra` cells go after the total */
  const perAsset = (label: string, values: readonly Figure[], extra: readonly Cell[] = [], style: Partial<Style> = INDENT_STYLE): number => {
    const row = g.next;
    return g.put([textCell(label, style), ...values.map((v) => g.money(v)), g.formula(`SUM(${col(0)}${row}:${col(n - 1)}${row})`, sum(values)), ...extra]);
  };

  // --- title -------------------------------------------------------------------------------
  g.wrap(`Crypto assets — ${note.entity}`, widths, TITLE_STYLE, 24);
  g.wrap(`Disclosure note for ${dayWords(note.firstDay)} to ${dayWords(note.lastDay)} (ASC 350-60-50, ASU 2023-08). Books currency: ${books}; amounts in ${books} unless a line says units.`, widths, BOLD_STYLE);
  g.wrap(`As of the end of ${dayWords(note.lastDay)} in ${note.tz}: ${note.asOf.slice(0, 19).replace('T', ' ')} UTC, excluded.`, widths, SUBTITLE_STYLE);
  for (const a of note.assets) {
    g.wrap(a.price === null ? `Fair value of ${a.ticker}: no price at the period's end, so the fair value is unknown.` : `Fair value of ${a.ticker}: ${groupThousands(a.price.text)} ${books} per ${a.ticker}, the last price at or before the period's end — ${a.priceSource ?? 'price'}, price of ${a.price.at.slice(0, 19).replace('T', ' ')} UTC.`, widths, SUBTITLE_STYLE);
  }

  // --- holdings ----------------------------------------------------------------------------
  section(`Holdings at ${dayWords(note.lastDay)}`);
  header('', [...note.assets.map((a) => a.ticker), `total (${books})`]);
  const held = g.put([textCell('units held (own unit)', INDENT_STYLE), ...note.assets.map((a) => units(a.units, a))]);
  g.put([textCell('lots held (sheet Lots)', INDENT_STYLE), ...note.assets.map((a) => ({ value: a.lots, style: COUNT }))]);
  const cost = perAsset(`cost basis (${books})`, note.assets.map((a) => a.costBasis));
  const fair = perAsset(`fair value (${books})`, note.assets.map((a) => a.fairValue));
  const gains = note.assets.map((a) => a.unrealizedGain);
  g.put([textCell('unrealized gain (loss)', BOLD_STYLE), ...[...gains, sum(gains)].map((v, k) => g.formula(`${col(k)}${fair}-${col(k)}${cost}`, v))]);
  g.put([textCell(`closing price (${books} per unit)`, INDENT_STYLE), ...note.assets.map((a) => (a.price === null ? g.money(null) : { value: Number(a.price.text), style: decimalStyle(a.price.decimals) }))]);
  for (const line of roundingWords(note)) g.wrap(line, widths, SUBTITLE_STYLE);
  if (note.assets.some((a) => a.ownCustody.units !== 0n)) {
    // outside the service's wallets: shown beside the holdings, never added into them (docs/lots.md "Withdrawals and own custody")
    g.put([textCell("in the company's own custody wallets (not in the figures above)", BOLD_STYLE)]);
    g.put([textCell('units held (own unit)', INDENT_STYLE), ...note.assets.map((a) => units(a.ownCustody.units, a))]);
    perAsset(`cost basis (${books})`, note.assets.map((a) => a.ownCustody.costBasis));
    perAsset(`fair value at the closing price (${books})`, note.assets.map((a) => a.ownCustody.fairValue));
    g.wrap("Own custody wallets are the company's wallets outside the service (cold storage): lots withdrawn there keep their dates and cost, and no gain is booked; payexport sees only what moved to and from them, so their holdings are shown here as tracked and are not part of the service's roll-forward below.", widths, SUBTITLE_STYLE);
  }

  // --- roll-forward ------------------------------------------------------------------------
  section(`Roll-forward, ${dayWords(note.firstDay)} to ${dayWords(note.lastDay)}: fair value (${books}) and units`);
  header('', [...note.assets.map((a) => `${a.ticker} (${books})`), `total (${books})`, ...note.assets.map((a) => `${a.ticker} units`)]);
  const flows = (pick: (a: NoteAsset) => bigint): Cell[] => note.assets.map((a) => units(pick(a), a));
  // "Add:" and "Less:" as a statement writes them (a leading + or = would be a formula trigger, cells.ts)
  const open = perAsset(`Opening fair value, ${dayWords(note.firstDay)}`, note.assets.map((a) => a.value.opening), flows((a) => a.unitFlows.opening));
  const add = perAsset('Add: additions', note.assets.map((a) => a.value.additions), flows((a) => a.unitFlows.acquired));
  const disp = perAsset('Less: dispositions, at proceeds', note.assets.map((a) => a.value.dispositions), flows((a) => a.unitFlows.disposed));
  const moved = perAsset('Add (less): transfers to and from own custody, net', note.assets.map((a) => a.value.transfersNet), flows((a) => a.unitFlows.transferredIn - a.unitFlows.transferredOut));
  const remeasure = perAsset('Add (less): remeasurement gain (loss)', note.assets.map((a) => a.value.remeasurement));
  const closingValue = (c: string): string => `${c}${open}+${c}${add}-${c}${disp}+${c}${moved}+${c}${remeasure}`;
  const closingUnits = (c: string): string => `${c}${open}+${c}${add}-${c}${disp}+${c}${moved}`;
  const unitsClosed = (a: NoteAsset): bigint => a.unitFlows.opening + a.unitFlows.acquired - a.unitFlows.disposed + a.unitFlows.transferredIn - a.unitFlows.transferredOut;
  const closing = g.put([
    textCell(`Closing fair value, ${dayWords(note.lastDay)}`, BOLD_STYLE),
    ...[...note.assets.map((a) => a.value.closing), sum(note.assets.map((a) => a.value.closing))].map((v, k) => g.formula(closingValue(col(k)), v)),
    ...note.assets.map((a, k) => g.formula(closingUnits(col(unitsAt(k))), unitsClosed(a), a.unitScale)),
  ]);
  const differs = (x: Figure, y: Figure): Figure => (x === null || y === null ? null : x - y);
  g.put([
    textCell('difference from holdings (0: ties)', INDENT_STYLE),
    ...[...note.assets.map((a) => differs(a.value.closing, a.fairValue)), differs(sum(note.assets.map((a) => a.value.closing)), sum(note.assets.map((a) => a.fairValue)))].map((v, k) => g.formula(`${col(k)}${closing}-${col(k)}${fair}`, v)),
    ...note.assets.map((a, k) => g.formula(`${col(unitsAt(k))}${closing}-${col(k)}${held}`, unitsClosed(a) - a.units, a.unitScale)),
  ]);
  g.wrap('Opening + additions − dispositions ± transfers + remeasurement = closing: each cell of the closing line is that formula, so the sheet recomputes. Additions are receives, deposits and swaps in; dispositions are sends with their fees, withdrawals and transfer fees, each at its proceeds (the journal’s value); transfers are lots moved to the company’s own custody wallets (less) or back from them (add) — moves between two of the service’s wallets cancel out; the remeasurement brings the carrying value to the units’ fair value at the closing price. The units roll the same way; a remeasurement moves no units.', widths, SUBTITLE_STYLE);

  // --- realized gains ----------------------------------------------------------------------
  section(`Realized gain (loss), measured against cost basis (${books})`);
  header('', [...note.assets.map((a) => a.ticker), `total (${books})`]);
  perAsset('realized gain of the period', note.assets.map((a) => a.realizedGain));
  perAsset(`cumulative, first event to ${dayWords(note.lastDay)}`, note.assets.map((a) => a.cumulativeRealizedGain));
  g.wrap('Realized gain = proceeds − cost basis of the lots relieved (sheet Lot reliefs; form-8949.csv). It is not a line of the roll-forward: there a disposal leaves at its proceeds from assets carried at fair value, so its gain over cost is already inside the fair values and remeasurements above — adding it in would count it twice.', widths, SUBTITLE_STYLE);

  // --- per wallet --------------------------------------------------------------------------
  section(`Cost-basis method and holdings per wallet at ${dayWords(note.lastDay)} (the subtotals of sheet Lots)`);
  header('wallet', ['asset', 'method, since', 'lots', 'units', `cost basis (${books})`, `fair value (${books})`, `unrealized gain (${books})`], 2);
  for (const w of note.wallets) {
    const asset = note.assets.find((a) => a.currency === w.currency);
    const row = g.next;
    g.put([
      textCell(w.walletName),
      textCell(w.ticker, INDENT_STYLE),
      textCell(w.since === null ? `${w.method} (default)` : `${w.method}, ${w.since.slice(0, 10)}`, INDENT_STYLE),
      { value: w.lots, style: COUNT },
      asset === undefined ? textCell('') : units(w.units, asset),
      g.money(w.costBasis),
      g.money(w.fairValue),
      g.formula(`${col(5)}${row}-${col(4)}${row}`, differs(w.fairValue, w.costBasis)),
    ]);
  }

  // --- definitions -------------------------------------------------------------------------
  section('Definitions');
  const rest = widths.slice(1).reduce((a, b) => a + b, 0);
  for (const [term, words] of definitions(note)) g.put([textCell(term, wrapped(BOLD_STYLE)), textCell(words, wrapped({}))], Math.max(wrappedLines(words, rest), wrappedLines(term, LABEL_WIDTH)) * LINE_PT, [[2, widths.length]]);
  await workbook.commitSheet(sheet);
}

/** The sheet's rows written in order, with the number the next one gets (formulas name rows before they are written). */
class Grid {
  next = 1;

  constructor(
    private readonly sheet: Worksheet,
    private readonly minorUnits: number,
  ) {}

  put(cells: readonly (Cell | null)[], rowHeight?: number, merges: readonly (readonly [number, number])[] = []): number {
    // a label longer than its column wraps, and its row grows to hold it
    const label = cells[0];
    const lines = rowHeight === undefined && merges.length === 0 && typeof label?.value === 'string' ? wrappedLines(label.value, LABEL_WIDTH) : 1;
    const height = lines > 1 ? lines * LINE_PT : rowHeight;
    const first = lines > 1 && label !== null && label !== undefined ? [{ value: label.value, style: wrapped(label.style) }, ...cells.slice(1)] : cells;
    // a row taller than a line: its figures line up with the label's first line
    const tall = height !== undefined && height > LINE_PT;
    const n = putRow(this.sheet, tall ? first.map((c) => (c === null ? null : { value: c.value, style: topAligned(c.style) })) : first, height, merges);
    this.next = n + 1;
    return n;
  }

  wrap(text: string, widths: readonly number[], style: Partial<Style>, linePt = LINE_PT): number {
    const n = putWrapped(this.sheet, text, widths, style, 1, linePt);
    this.next = n + 1;
    return n;
  }

  money(v: Figure): Cell {
    return { value: v === null ? null : Number(formatBase(v, this.minorUnits)), style: decimalStyle(this.minorUnits) };
  }

  /** a formula with its exact result; an unknown figure stays an empty cell */
  formula(formula: string, result: Figure, scale = this.minorUnits): Cell {
    return { value: result === null ? null : { formula, result: Number(formatBase(result, scale)) }, style: boldNumber(scale) };
  }
}

const boldNumbers = new Map<number, Partial<Style>>();
function boldNumber(scale: number): Partial<Style> {
  let style = boldNumbers.get(scale);
  if (style === undefined) {
    style = { ...BOLD_STYLE, ...decimalStyle(scale) };
    boldNumbers.set(scale, style);
  }
  return style;
}

/** The data columns' width: the longest amount shown plus room, at least MIN_DATA_WIDTH, at most a quarter page. */
function dataWidth(note: CryptoAssetsNote): number {
  const shown = note.assets.flatMap((a) => [formatBase(a.units, a.unitScale), ...[a.costBasis, a.fairValue, a.value.opening, a.value.additions, a.value.dispositions, a.cumulativeRealizedGain].map((v) => (v === null ? '' : formatBase(v, note.minorUnits)))]);
  const longest = Math.max(0, ...shown.map((t) => groupThousands(t).length));
  // two more than the longest figure: a bold closing line is wider than the plain figures above it
  return Math.min(Math.max(MIN_DATA_WIDTH, longest + 2), Math.floor(widthUnitsPerPage('landscape', NARROW_MARGINS) / 4));
}

/** The Overview's block (sinks/overview-crypto.ts) from the note. */
export function cryptoOverview(note: CryptoAssetsNote): CryptoOverview {
  return {
    booksCurrency: note.booksCurrency,
    minorUnits: note.minorUnits,
    lastDay: dayWords(note.lastDay),
    rows: note.assets.map((a) => ({ ticker: a.ticker, lots: a.lots, units: a.units, unitScale: a.unitScale, costBasis: a.costBasis, fairValue: a.fairValue, realizedGain: a.realizedGain, unrealizedGain: a.unrealizedGain, ties: a.ties })),
    notes: roundingWords(note),
  };
}
