/**
 * The "Crypto assets" sheet: the disclosure note (model/crypto-note.ts, built by src/lots) drawn for
 * a controller, top to bottom — title, period, as-of instant, books currency and where each fair
 * value comes from; the holdings per asset and location (ASC 350-60-50-1); the roll-forward with
 * remeasurement gains and losses apart, beside it the units (50-3); then the blocks of
 * crypto-note-blocks.ts (realized gains and losses, the nature of additions and dispositions, the
 * income-statement line, methods, restrictions, definitions). crypto-assets.csv keeps the machine names.
 *
 * Grid: column A holds the labels; every total, closing line and difference is a formula over the
 * cells above it with its exact result cached (note-grid.ts), so the sheet recomputes.
 */
import { formatBase, groupThousands } from '../money/format.js';
import type { CryptoNote, NoteAsset, NoteFigures } from '../model/crypto-note.js';
import { drawClosingBlocks } from './crypto-note-blocks.js';
import { COUNT, differenceOf, NoteGrid, sumOf, type Figure } from './note-grid.js';
import { NARROW_MARGINS, printSetup, widthUnitsPerPage } from './print-fit.js';
import { decimalStyle } from './render-cells.js';
import { BOLD_STYLE, INDENT_STYLE, SUBTITLE_STYLE, TITLE_STYLE, ALERT_STYLE, textCell, type Cell } from './xlsx-cells.js';
import { columnLetter } from './xlsx-row-xml.js';
import type { StreamingWorkbook } from './xlsx-workbook.js';

export const CRYPTO_ASSETS_SHEET = 'Crypto assets';

const LABEL_WIDTH = 28;
const MIN_DATA_WIDTH = 13;
/** data columns the holdings and the per-wallet blocks need */
const MIN_DATA_COLUMNS = 6;

/** A roll-forward column: an asset's total, or one of its locations. */
export interface NoteColumn {
  asset: NoteAsset;
  figures: NoteFigures;
  /** `BTC` or `BTC, own custody` */
  title: string;
  total: boolean;
  /** the holdings row its closing line is compared with */
  holdingsRow: number;
}

export async function writeCryptoNoteSheet(workbook: StreamingWorkbook, note: CryptoNote): Promise<void> {
  const groups = note.assets.flatMap((a) => [{ asset: a, figures: a.total, title: a.ticker, total: true }, ...a.locations.map((l) => ({ asset: a, figures: l.figures, title: `${a.ticker}, ${l.label}`, total: false }))]);
  const columnCount = Math.max(groups.length + 1, MIN_DATA_COLUMNS);
  const widths = [LABEL_WIDTH, ...Array.from({ length: columnCount }, () => dataWidth(note, columnCount))];
  const sheet = workbook.addSheet(CRYPTO_ASSETS_SHEET, {
    views: [{ showGridLines: false }],
    properties: { tabColor: { argb: 'FF1E3A8A' } },
    pageSetup: printSetup(widths, { orientation: 'landscape', printArea: `A:${columnLetter(widths.length)}` }),
  });
  sheet.columns = widths.map((w) => ({ width: w }));
  const g = new NoteGrid(sheet, widths, note.minorUnits);
  g.wrap(`Crypto assets — ${note.entity}`, TITLE_STYLE, 24);
  if (note.assets.length === 0) {
    g.wrap(`No crypto asset was held or moved in the tracked wallets from ${note.periodWords}.`, BOLD_STYLE);
    await workbook.commitSheet(sheet);
    return;
  }
  g.wrap(`Disclosure note for ${note.periodWords} (ASC 350-60-50, ASU 2023-08). Books currency: ${note.booksCurrency}; amounts in ${note.booksCurrency} unless a line says units; negative amounts in parentheses.`, BOLD_STYLE);
  g.wrap(note.asOf, SUBTITLE_STYLE);
  for (const a of note.assets) g.wrap(priceWords(a, note.booksCurrency), a.priceStale ? ALERT_STYLE : SUBTITLE_STYLE);
  const holdings = drawHoldings(g, note);
  const columns: NoteColumn[] = groups.map((c) => ({ ...c, holdingsRow: holdings.get(c.title) ?? 0 }));
  drawRollForward(g, note, columns);
  drawUnits(g, note, columns);
  drawClosingBlocks(g, note);
  await workbook.commitSheet(sheet);
}

function priceWords(a: NoteAsset, books: string): string {
  if (a.price === null) return `Fair value of ${a.ticker}: no price at the period's end, so the fair value is unknown.`;
  const stale = a.priceStale ? ' — older than the age allowed at the period\'s end: it may be stale (see below)' : '';
  return `Fair value of ${a.ticker}: ${groupThousands(a.price.text)} ${books} per ${a.ticker}, the last price at or before the period's end — ${a.price.source}, price of ${a.price.at.slice(0, 19).replace('T', ' ')} UTC${stale}.`;
}

/** ASC 350-60-50-1: per asset (each a significant holding) its units, cost basis and fair value, and per location beside it. Returns each column title's row. */
function drawHoldings(g: NoteGrid, note: CryptoNote): Map<string, number> {
  const books = note.booksCurrency;
  g.section(`Holdings at ${note.lastDayWords}, every location (ASC 350-60-50-1)`);
  g.header('asset, location', ['units (own unit)', 'lots', `cost basis (${books})`, `fair value (${books})`, `unrealized gain (loss) (${books})`, `closing price (${books} per unit)`]);
  const rows = new Map<string, number>();
  const totals: number[] = [];
  for (const a of note.assets) {
    const line = (label: string, f: NoteFigures, total: boolean): number => {
      const row = g.next;
      return g.put([
        textCell(label, total ? BOLD_STYLE : INDENT_STYLE),
        g.units(f.units, a.unitScale, total),
        { value: f.lots, style: COUNT },
        g.money(f.costBasis, total),
        g.money(f.fairValue, total),
        g.formula(`E${row}-D${row}`, differenceOf(f.fairValue, f.costBasis)),
        total && a.price !== null ? { value: Number(a.price.text), style: decimalStyle(a.price.decimals) } : textCell(''),
      ]);
    };
    const at = line(`${a.ticker} — ${a.name}${a.locations.length > 0 ? ', all locations' : ''}`, a.total, true);
    rows.set(a.ticker, at);
    totals.push(at);
    for (const l of a.locations) rows.set(`${a.ticker}, ${l.label}`, line(l.label, l.figures, false));
  }
  const row = g.next;
  const sum = (c: string, pick: (f: NoteFigures) => Figure): Cell => g.formula(totals.map((r) => `${c}${r}`).join('+'), sumOf(note.assets.map((a) => pick(a.total))));
  g.put([textCell(`total (${books})`, BOLD_STYLE), null, null, sum('D', (f) => f.costBasis), sum('E', (f) => f.fairValue), g.formula(`E${row}-D${row}`, differenceOf(sumOf(note.assets.map((a) => a.total.fairValue)), sumOf(note.assets.map((a) => a.total.costBasis))))]);
  g.wrap('Every holding is shown on its own (none is aggregated as not individually significant). Units held at the end in each asset\'s own unit; the locations are where they are held — the service\'s wallets and the company\'s own custody wallets — and add up to the asset\'s line. Unrealized gain = fair value − cost basis.', SUBTITLE_STYLE);
  for (const line of note.holdingsNotes) g.wrap(line, line.includes('stale') ? ALERT_STYLE : SUBTITLE_STYLE);
  return rows;
}

/** ASC 350-60-50-3: opening to closing fair value, additions, dispositions, remeasurement gains and losses apart; the total is the assets' columns summed. */
function drawRollForward(g: NoteGrid, note: CryptoNote, columns: readonly NoteColumn[]): void {
  const books = note.booksCurrency;
  const col = (k: number): string => columnLetter(k + 2);
  const totalAt = columns.map((c, k) => (c.total ? k : -1)).filter((k) => k >= 0);
  g.section(`Roll-forward of fair value, ${note.periodWords} (${books}; ASC 350-60-50-3)`);
  g.header('', [...columns.map((c) => c.title), `total (${books})`]);
  const gains = (c: NoteColumn, gain: boolean): Figure => (c.asset.remeasurementIsGain === gain ? c.figures.remeasurement : 0n);
  const lines: Array<[string, (c: NoteColumn) => Figure]> = [
    [`Opening fair value, ${note.firstDayWords}`, (c) => c.figures.opening],
    ['Additions', (c) => c.figures.additions],
    ['Dispositions, at proceeds', (c) => (c.figures.dispositions === null ? null : -c.figures.dispositions)],
    ['Transfers between locations, net', (c) => c.figures.transfersNet],
    ['Remeasurement gains', (c) => gains(c, true)],
    ['Remeasurement losses', (c) => gains(c, false)],
  ];
  const first = g.next;
  for (const [label, pick] of lines) {
    const row = g.next;
    g.put([textCell(label, INDENT_STYLE), ...columns.map((c) => g.money(pick(c))), g.formula(totalAt.map((k) => `${col(k)}${row}`).join('+'), sumOf(totalAt.map((k) => pick(columns[k] as NoteColumn))))]);
  }
  const last = g.next - 1;
  const closingOf = (c: NoteColumn): Figure => sumOf(lines.map(([, pick]) => pick(c)));
  const closings = [...columns.map(closingOf), sumOf(totalAt.map((k) => closingOf(columns[k] as NoteColumn)))];
  const closing = g.put([textCell(`Closing fair value, ${note.lastDayWords}`, BOLD_STYLE), ...closings.map((v, k) => g.formula(`SUM(${col(k)}${first}:${col(k)}${last})`, v))]);
  g.put([textCell('difference from holdings (0: ties)', INDENT_STYLE), ...columns.map((c, k) => g.difference(`${col(k)}${closing}-E${c.holdingsRow}`, differenceOf(closingOf(c), c.figures.fairValue)))]);
  g.wrap("Each closing figure is the sum of its column (opening + additions − dispositions ± transfers + gains − losses), so the sheet recomputes. Remeasurement is what brings the carrying value to the fair value at the closing price (the journal's remeasurement entries, every location included); it goes on the gains line or the losses line asset by asset, and the asset's locations follow its line. Transfers move lots between the company's own wallets: to its own custody they leave the service's wallets and arrive there (0 in the asset's total).", SUBTITLE_STYLE);
}

/** The units roll the same way (a remeasurement moves none): per asset and location, no total across assets. */
function drawUnits(g: NoteGrid, note: CryptoNote, columns: readonly NoteColumn[]): void {
  const col = (k: number): string => columnLetter(k + 2);
  g.section(`Roll-forward of units, ${note.periodWords} (each asset in its own unit)`);
  g.header('', columns.map((c) => `${c.title} units`));
  const lines: Array<[string, (f: NoteFigures) => bigint]> = [
    [`Opening units, ${note.firstDayWords}`, (f) => f.units0],
    ['Acquired (receives, deposits, swaps in)', (f) => f.unitsAcquired],
    ['Disposed of (relief lines)', (f) => -f.unitsDisposed],
    ['Transferred in − out', (f) => f.unitsTransferred],
  ];
  const first = g.next;
  for (const [label, pick] of lines) g.put([textCell(label, INDENT_STYLE), ...columns.map((c) => g.units(pick(c.figures), c.asset.unitScale))]);
  const last = g.next - 1;
  const closing = g.put([textCell(`Closing units, ${note.lastDayWords}`, BOLD_STYLE), ...columns.map((c, k) => g.formula(`SUM(${col(k)}${first}:${col(k)}${last})`, lines.reduce((a, [, pick]) => a + pick(c.figures), 0n), c.asset.unitScale))]);
  g.put([textCell('difference from holdings (0: ties)', INDENT_STYLE), ...columns.map((c, k) => g.difference(`${col(k)}${closing}-B${c.holdingsRow}`, lines.reduce((a, [, pick]) => a + pick(c.figures), 0n) - c.figures.units, c.asset.unitScale))]);
}

/**
 * The data columns' width: the longest figure shown in parentheses, and room for a bold closing
 * line where the page allows it — so that `columns` of them fit one page across (a note is read
 * on one); a figure longer than that takes a second page rather than printing as ###.
 */
function dataWidth(note: CryptoNote, columns: number): number {
  const shown = note.assets.flatMap((a) => [formatBase(a.total.units, a.unitScale), ...[a.total.costBasis, a.total.fairValue, a.total.opening, a.total.additions, a.total.dispositions, a.realized.cumulative].map((v) => (v === null ? '' : formatBase(v, note.minorUnits)))]);
  const longest = Math.max(MIN_DATA_WIDTH - 2, ...shown.map((t) => groupThousands(t).length + 2));
  const fits = Math.floor((widthUnitsPerPage('landscape', NARROW_MARGINS) - LABEL_WIDTH) / columns);
  return fits >= longest ? Math.min(longest + 2, fits) : longest + 1;
}
