/**
 * The Crypto assets note's blocks after the roll-forwards (crypto-note-sheet.ts draws the rest):
 * what the period's disposals realized against cost, gains and losses apart, and the cost of what
 * was disposed of (ASC 350-60-50-4); the nature of additions and dispositions (50-4); the
 * income-statement line (50-2); the cost-basis method per wallet and every change in the period
 * (50-2); contractual sale restrictions (50-5); definitions.
 */
import type { CryptoNote, NoteAsset } from '../model/crypto-note.js';
import type { NoteGrid} from './note-grid.js';
import { COUNT, differenceOf, negated, sumOf, type Figure } from './note-grid.js';
import { LINE_PT, wrappedLines } from './print-fit.js';
import { ALERT_STYLE, BOLD_STYLE, INDENT_STYLE, SUBTITLE_STYLE, textCell, wrapped } from './xlsx-cells.js';
import { columnLetter } from './xlsx-row-xml.js';

export function drawClosingBlocks(g: NoteGrid, note: CryptoNote): void {
  drawRealized(g, note);
  g.section('Nature of the additions and dispositions (ASC 350-60-50-4)');
  g.wrap(note.additionsWords, {});
  g.wrap(note.dispositionsWords, {});
  g.section('Presentation in the income statement (ASC 350-60-50-2)');
  g.wrap(`Gains and losses on crypto assets — the remeasurement to fair value, which includes what disposals realized over the carrying value — are presented in: ${note.incomeStatement}.`, {});
  drawMethods(g, note);
  drawRestrictions(g, note);
  g.section('Definitions');
  const rest = g.widths.slice(1).reduce((a, b) => a + b, 0);
  for (const [term, words] of note.definitions) g.put([textCell(term, wrapped(BOLD_STYLE)), textCell(words, wrapped({}))], Math.max(wrappedLines(words, rest), wrappedLines(term, g.widths[0] ?? 1)) * LINE_PT, [[2, g.widths.length]]);
}

/** Proceeds − cost basis of the disposals = realized gain; its gains and losses apart; cumulative. */
function drawRealized(g: NoteGrid, note: CryptoNote): void {
  const books = note.booksCurrency;
  const n = note.assets.length;
  const col = (k: number): string => columnLetter(k + 2);
  g.section(`Realized gains and losses on disposals, ${note.periodWords} (${books}; ASC 350-60-50-4)`);
  g.header('', [...note.assets.map((a) => a.ticker), `total (${books})`]);
  const line = (label: string, values: readonly Figure[], style = INDENT_STYLE): number => {
    const row = g.next;
    return g.put([textCell(label, style), ...values.map((v) => g.money(v)), g.formula(`SUM(${col(0)}${row}:${col(n - 1)}${row})`, sumOf(values))]);
  };
  const pick = (f: (a: NoteAsset) => Figure): Figure[] => note.assets.map(f);
  const proceeds = line('Proceeds of the dispositions', pick((a) => a.realized.proceeds));
  const cost = line('Cost basis of the crypto assets disposed of', pick((a) => negated(a.realized.costBasis)));
  const nets = pick((a) => differenceOf(a.realized.proceeds, a.realized.costBasis));
  const net = g.put([textCell('Realized gain (loss), net', BOLD_STYLE), ...[...nets, sumOf(nets)].map((v, k) => g.formula(`${col(k)}${proceeds}+${col(k)}${cost}`, v))]);
  const gains = line('of which realized gains', pick((a) => a.realized.gains));
  const losses = line('of which realized losses', pick((a) => a.realized.losses));
  const split = pick((a) => sumOf([a.realized.gains, a.realized.losses]));
  g.put([textCell('difference (0: ties)', INDENT_STYLE), ...[...nets, sumOf(nets)].map((v, k) => g.difference(`${col(k)}${net}-${col(k)}${gains}-${col(k)}${losses}`, differenceOf(v, k < n ? (split[k] ?? null) : sumOf(split))))]);
  line(`Cumulative realized gain (loss), net, first event to ${note.lastDayWords}`, pick((a) => a.realized.cumulative));
  g.wrap('Realized gain = proceeds − cost basis of the lots relieved (sheet Lot reliefs; form-8949.csv), the relief lines with a gain and those with a loss added apart. It is measured against cost, not a line of the fair-value roll-forward: there a disposal leaves at its proceeds from assets carried at fair value, so its gain over cost is already inside the fair values and remeasurements above — adding it in would count it twice.', SUBTITLE_STYLE);
}

/** ASC 350-60-50-2: the method per wallet, with its holdings (the Lots sheet's subtotals), and every change of method in the period. */
function drawMethods(g: NoteGrid, note: CryptoNote): void {
  const books = note.booksCurrency;
  g.section(`Cost-basis method and holdings per wallet at ${note.lastDayWords} (the subtotals of sheet Lots; ASC 350-60-50-2)`);
  g.header('wallet — asset', ['method, since', 'lots', 'units', `cost basis (${books})`, `fair value (${books})`, `unrealized gain (loss) (${books})`], 1);
  for (const w of note.wallets) {
    const row = g.next;
    const label = `${w.name}${w.location === 'own custody' ? ' (own custody)' : ''} — ${w.ticker}`;
    const lines = Math.max(wrappedLines(label, g.widths[0] ?? 1), wrappedLines(w.method, g.widths[1] ?? 1));
    g.put(
      [
        textCell(label, wrapped({})),
        textCell(w.method, wrapped(INDENT_STYLE)),
        { value: w.lots, style: COUNT },
        g.units(w.units, w.unitScale),
        g.money(w.costBasis),
        g.money(w.fairValue),
        g.formula(`F${row}-E${row}`, differenceOf(w.fairValue, w.costBasis)),
      ],
      lines * LINE_PT,
    );
  }
  g.wrap('Changes of method in the period', BOLD_STYLE);
  if (note.methodChanges.length === 0) g.wrap('None: every wallet kept its method through the period.', INDENT_STYLE);
  for (const change of note.methodChanges) g.wrap(change, INDENT_STYLE);
}

/** ASC 350-60-50-5: contractual sale restrictions, "none" when the configuration says so, flagged when it says nothing. */
function drawRestrictions(g: NoteGrid, note: CryptoNote): void {
  const books = note.booksCurrency;
  g.section('Contractual sale restrictions (ASC 350-60-50-5)');
  if (note.restrictions === null) {
    g.wrap('Not stated: the configuration (lots.disclosure.restrictions) does not say whether any crypto asset held is subject to a contractual sale restriction. State "none", or each restriction, before this note is used (warning lots.restrictions_unstated).', ALERT_STYLE);
    return;
  }
  if (note.restrictions === 'none') {
    g.wrap('None: no crypto asset held is subject to a contractual sale restriction (as the configuration states, lots.disclosure.restrictions).', {});
    return;
  }
  g.header('wallet', ['asset', `fair value (${books})`, 'nature', 'remaining duration', 'what could make it lapse'], 1);
  for (const r of note.restrictions) {
    const words = [r.nature, r.remaining, r.lapse];
    const lines = Math.max(1, ...words.map((w) => wrappedLines(w, g.widths[3] ?? 1)));
    g.put([textCell(r.holder, wrapped({})), textCell(r.ticker, INDENT_STYLE), g.money(r.fairValue), ...words.map((w) => textCell(w, wrapped({})))], lines * LINE_PT);
  }
}
