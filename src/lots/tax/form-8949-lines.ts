/**
 * Form 8949 lines from the window's relief lines (docs/tax.md): one line per relief line (one lot,
 * one leg of a disposal, so each traces to lot-reliefs.csv), with its part, its box and the
 * Schedule D line the box's totals go to; columns (a)–(h) as the form names them; the raw
 * references in their own fields. Dates MM/DD/YYYY on the books' calendar, the one the term is
 * counted on (term.ts), and the tax year is the year of the disposal's date on it.
 *
 * Where a Form 1099-DA reported the disposal (form-1099da-match.ts), the line carries the form's
 * figures in (d)/(e) where the instructions ask for them and the difference in (g) with its codes
 * (f); otherwise (f) and (g) are blank ("For most transactions, you don't need to complete columns
 * (f) and (g)", Instructions for Form 8949 (2025)). A line whose proceeds are 0.00 says why.
 */
import type { Form1099DAReceipt } from '../../config/tax-schema.js';
import { formatBase } from '../../money/format.js';
import type { ReliefLine } from '../model.js';
import type { LocalDay } from '../term.js';
import { box8949, BOX_ORDER, partOf, SCHEDULE_D_LINE, type Box8949, type Part8949 } from './boxes.js';
import { unitsDescription, type UnitsOf } from './units-description.js';

/** What a Form 1099-DA changes on a line (form-1099da-adjust.ts): the box's receipt, the reported figures, codes and adjustment. */
export interface LineReport {
  receipt: Form1099DAReceipt;
  /** column (d) when it is not the books' proceeds */
  proceeds?: bigint;
  /** column (e) when it is not the books' cost (the basis the broker reported, box G/J) */
  cost?: bigint;
  /** column (f): codes in alphabetical order, no separator */
  codes: string;
  /** column (g) */
  adjustment: bigint | null;
  note: string;
}

export interface Form8949Line {
  taxYear: number;
  part: Part8949;
  box: Box8949;
  scheduleDLine: string;
  description: string;
  /** MM/DD/YYYY */
  acquired: string;
  sold: string;
  proceeds: bigint | null;
  cost: bigint | null;
  codes: string;
  adjustment: bigint | null;
  /** (h) = (d) − (e) + (g); null when a figure is unknown */
  gain: bigint | null;
  note: string;
  /** the relief line behind it: wallet, currency, exact units, disposal, lot */
  relief: ReliefLine;
}

export interface LineInputs {
  day: LocalDay;
  unitsOf: (currency: string) => UnitsOf;
  receiptOf: (walletId: string) => Form1099DAReceipt;
  booksCurrency: string;
  minorUnits: number;
  /** the Form 1099-DA's effect on a relief line, when a form reported it */
  reportOf?: (relief: ReliefLine) => LineReport | undefined;
}

export function form8949Lines(reliefs: readonly ReliefLine[], inputs: LineInputs): Form8949Line[] {
  const lines = reliefs.map((r) => lineOf(r, inputs));
  const rank = (l: Form8949Line): number => BOX_ORDER.indexOf(l.box);
  // Part I before Part II, each box's lines together in the form's order; a stable sort keeps the reliefs' order within
  return lines
    .map((line, i) => ({ line, i }))
    .sort((a, b) => a.line.taxYear - b.line.taxYear || rank(a.line) - rank(b.line) || a.i - b.i)
    .map((x) => x.line);
}

function lineOf(r: ReliefLine, inputs: LineInputs): Form8949Line {
  const soldDay = inputs.day(r.disposedAt);
  const taxYear = Number(soldDay.slice(0, 4));
  const report = inputs.reportOf?.(r);
  const box = box8949(r.term, taxYear, report?.receipt ?? inputs.receiptOf(r.walletId));
  const proceeds = report?.proceeds ?? r.proceeds;
  const cost = report?.cost ?? r.cost;
  const adjustment = report?.adjustment ?? null;
  const gain = proceeds === null || cost === null ? null : proceeds - cost + (adjustment ?? 0n);
  return {
    taxYear,
    part: partOf(box),
    box,
    scheduleDLine: SCHEDULE_D_LINE[box],
    description: unitsDescription(r.units, inputs.unitsOf(r.currency)),
    acquired: usDate(inputs.day(r.acquiredAt)),
    sold: usDate(soldDay),
    proceeds,
    cost,
    codes: report?.codes ?? '',
    adjustment,
    gain,
    note: [notesOf(r, inputs), report?.note ?? ''].filter((n) => n !== '').join(' '),
    relief: r,
  };
}

/** YYYY-MM-DD → MM/DD/YYYY, the form's "(Mo., day, yr.)". */
export function usDate(day: string): string {
  return `${day.slice(5, 7)}/${day.slice(8, 10)}/${day.slice(0, 4)}`;
}

/** Why a line's figures are what they are, when a reader would ask (docs/tax.md "Zero proceeds"). */
function notesOf(r: ReliefLine, inputs: LineInputs): string {
  const cent = formatBase(1n, inputs.minorUnits);
  if (r.proceeds === null) return `Proceeds unknown: no ${inputs.booksCurrency} price for this movement (journal.needs_price); enter them before filing.`;
  if (r.proceeds === 0n && r.units > 0n) {
    return `Proceeds under ${cent} ${inputs.booksCurrency}: the journal values this ${r.part.replace('_', ' ')}'s share at less than one cent, which rounds to ${formatBase(0n, inputs.minorUnits)}; the disposal is reported all the same.`;
  }
  if (r.cost === null) return 'Basis unknown (lots.basis_unknown): the units came from an unknown lot; enter the cost before filing.';
  return '';
}

export function money(v: bigint | null, minorUnits: number): string | null {
  return v === null ? null : formatBase(v, minorUnits);
}
