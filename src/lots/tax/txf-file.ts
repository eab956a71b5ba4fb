/**
 * form-8949.txf: the Form 8949 lines in the Tax Exchange Format, version 042 — Intuit's
 * specification, the import of TurboTax's desktop editions (docs/tax.md "Imports"). A header (V042,
 * A program, D export date), then one detail record per sale in record format 5:
 *
 *   TD / N<refnum> / C1 / L1 / P<security> / D<date acquired> / D<date sold> / $<cost basis> /
 *   $<sales net> / $<disallowed wash sale amount, empty> / ^
 *
 * dates MM/DD/YYYY, records separated by a line holding "^", an ASCII file with no tabs. The refnum
 * says which box of Form 8949 the sale goes to: 321/711/712 for boxes A/B/C (short term) and
 * 323/713/714 for D/E/F (long term) — the specification's "Form 8949 Copy A/B/C". It has no refnum
 * for the digital-asset boxes G–L of tax years from 2025, and putting a digital asset in box C or F
 * is what the instructions forbid; such lines are not written (the statement, the totals and the
 * TaxAct file carry them). The export date is the window's last day, so a re-run writes the same
 * bytes.
 */
import { formatBase } from '../../money/format.js';
import type { Box8949 } from './boxes.js';
import type { Form8949Line } from './form-8949-lines.js';

const REFNUM: Partial<Record<Box8949, number>> = { A: 321, B: 711, C: 712, D: 323, E: 713, F: 714 };

export interface TxfFile {
  text: string;
  /** lines written */
  rows: number;
  /** lines left out: a box the specification has no refnum for, an unknown figure, an adjustment it cannot carry */
  left: number;
}

export function txfFile(lines: readonly Form8949Line[], options: { program: string; exportDay: string; minorUnits: number }): TxfFile {
  const out = ['V042', `A${ascii(options.program)}`, `D ${options.exportDay}`, '^'];
  let rows = 0;
  for (const line of lines) {
    const refnum = REFNUM[line.box];
    if (refnum === undefined || line.proceeds === null || line.cost === null || line.adjustment !== null) continue;
    const money = (v: bigint): string => `$${formatBase(v, options.minorUnits)}`;
    out.push('TD', `N${refnum}`, 'C1', 'L1', `P${ascii(line.description)}`, `D${line.acquired}`, `D${line.sold}`, money(line.cost), money(line.proceeds), '$', '^');
    rows += 1;
  }
  return { text: `${out.join('\r\n')}\r\n`, rows, left: lines.length - rows };
}

/** The specification's "ascii file with no tabs": anything else becomes '?'. */
function ascii(text: string): string {
  return text.replace(/[^\x20-\x7e]/g, '?');
}
