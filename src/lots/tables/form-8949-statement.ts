/**
 * The Form 8949 statement (docs/tax.md "The statement"): what a preparer attaches instead of listing
 * every transaction on the form — "an attached statement containing all the same information as
 * Parts I and II and in a similar format (that is, description of property, dates of acquisition
 * and disposition, proceeds, basis, adjustment and code(s), and gain (or loss))" (Instructions for
 * Form 8949 (2025), Exception 2); the totals are then entered on Form 8949 with the box checked.
 *
 * One sheet per box (a part of Form 8949 checks one box): the entity and identifying number, the
 * part and the box's text as the form prints it, the form's columns (a)–(h) with one row per line
 * and each line's transaction id, its exact units when (a) rounds them and its note beside, and the totals row with the Schedule
 * D line they are included on. Printed landscape, one page wide, the column headers repeated on
 * every page, page N of M in the footer; negative amounts in parentheses, as the form asks.
 */
import type { Style } from 'exceljs';
import { formatBase } from '../../money/format.js';
import { LINE_PT, printSetup, wrappedLines } from '../../sinks/print-fit.js';
import { BOLD_STYLE, HEADER_STYLE, putRow, putWrapped, SUBTITLE_STYLE, textCell, TITLE_STYLE, topAligned, wrapped, type Cell } from '../../sinks/xlsx-cells.js';
import type { StreamingWorkbook } from '../../sinks/xlsx-workbook.js';
import { BOX_TEXT } from '../tax/boxes.js';
import type { Form8949Line } from '../tax/form-8949-lines.js';
import type { BoxTotal } from '../tax/form-8949-totals.js';
import { unitsExact, type UnitsOf } from '../tax/units-description.js';

export interface StatementInput {
  entity: string;
  identifyingNumber: string | null;
  /** "1 October 2026 to 31 October 2026 (America/New_York)" */
  period: string;
  lines: readonly Form8949Line[];
  totals: readonly BoxTotal[];
  minorUnits: number;
  unitsOf: (currency: string) => UnitsOf;
}

/** (a) … (h), then the references: the form's widths for its columns, a wide one for the references */
export const STATEMENT_WIDTHS = [24, 10.5, 10.5, 12, 12, 5, 11, 12, 40] as const;
const HEADERS = ['(a) Description of property', '(b) Date acquired (Mo., day, yr.)', '(c) Date sold or disposed of (Mo., day, yr.)', '(d) Proceeds (sales price)', '(e) Cost or other basis', '(f) Code(s)', '(g) Amount of adjustment', '(h) Gain or (loss)', 'Transaction ID (leg); exact units; note'];
const HEADER_ROW_PT = 5 * LINE_PT;

export async function writeForm8949Statement(workbook: StreamingWorkbook, input: StatementInput): Promise<void> {
  if (input.totals.length === 0) {
    const sheet = workbook.addSheet('Form 8949', { views: [{ showGridLines: false }], pageSetup: printSetup(STATEMENT_WIDTHS, { orientation: 'landscape' }) });
    sheet.columns = STATEMENT_WIDTHS.map((width) => ({ width }));
    putWrapped(sheet, `Form 8949 statement — ${input.entity}: no digital asset was sold, exchanged or otherwise disposed of from ${input.period}; there is nothing to report on Form 8949 for it.`, STATEMENT_WIDTHS, BOLD_STYLE);
    await workbook.commitSheet(sheet);
    return;
  }
  const years = new Set(input.totals.map((t) => t.taxYear)).size;
  for (const total of input.totals) {
    const name = years > 1 ? `Form 8949 ${total.taxYear} box ${total.box}` : `Form 8949 box ${total.box}`;
    await writeBoxSheet(workbook, name, total, input);
  }
}

async function writeBoxSheet(workbook: StreamingWorkbook, name: string, total: BoxTotal, input: StatementInput): Promise<void> {
  const widths = STATEMENT_WIDTHS;
  const titleRows = 5;
  const headerRow = titleRows + 1;
  const sheet = workbook.addSheet(name, {
    views: [{ showGridLines: false, state: 'frozen', ySplit: headerRow }],
    pageSetup: printSetup(widths, { orientation: 'landscape', titleRows: `${headerRow}:${headerRow}`, printArea: `A:I` }),
    headerFooter: { oddFooter: `&L${footerText(`Form 8949 statement, Part ${total.part}, box ${total.box} — ${input.entity}`)}&RPage &P of &N` },
  });
  sheet.columns = widths.map((width) => ({ width }));
  const part = total.part === 'I' ? 'Part I — Short-Term (held one year or less)' : 'Part II — Long-Term (held more than one year)';
  putWrapped(sheet, `Form 8949 statement — Sales and Other Dispositions of Capital Assets, tax year ${total.taxYear}`, widths, TITLE_STYLE, 1, 22);
  putWrapped(sheet, `Name shown on return: ${input.entity.replace(/\.$/, '')}.   Identifying number: ${input.identifyingNumber ?? '________________'}`, widths, BOLD_STYLE);
  putWrapped(sheet, `${part}. Box ${total.box} checked: ${BOX_TEXT[total.box]}.`, widths, BOLD_STYLE);
  putWrapped(sheet, `The transactions of ${input.period}, one row per lot relieved, in the form's columns (Instructions for Form 8949, Exception 2). Enter the totals below on Form 8949, Part ${total.part}, with box ${total.box} checked, and include them on Schedule D, line ${total.scheduleDLine}. Negative amounts are in parentheses.`, widths, SUBTITLE_STYLE);
  putRow(sheet, []);
  putRow(sheet, HEADERS.map((h, i) => textCell(h, wrapped(i >= 3 && i <= 7 && i !== 5 ? { ...HEADER_STYLE, alignment: { ...HEADER_STYLE.alignment, horizontal: 'right' } } : HEADER_STYLE))), HEADER_ROW_PT);
  const first = headerRow + 1;
  let last = headerRow;
  for (const line of input.lines) {
    if (line.box !== total.box || line.taxYear !== total.taxYear) continue;
    last = putRow(sheet, ...lineRow(line, input));
  }
  const sum = (column: string, result: bigint | null): Cell => (result === null ? textCell('unknown', BOLD_STYLE) : { value: { formula: `SUM(${column}${first}:${column}${last})`, result: Number(formatBase(result, input.minorUnits)) }, style: moneyStyle(input.minorUnits, true) });
  const label = `Totals (${total.lines.toLocaleString('en-US')} ${total.lines === 1 ? 'line' : 'lines'}): enter on Form 8949, Part ${total.part}, box ${total.box}, and include on Schedule D, line ${total.scheduleDLine}`;
  putRow(sheet, [textCell(label, wrapped(BOLD_STYLE)), null, null, sum('D', total.proceeds), sum('E', total.cost), null, sum('G', total.adjustment), sum('H', total.gain)], wrappedLines(label, widths.slice(0, 3).reduce((a, b) => a + b, 0)) * LINE_PT, [[1, 3]]);
  await workbook.commitSheet(sheet);
}

function lineRow(line: Form8949Line, input: StatementInput): [Cell[], number] {
  const r = line.relief;
  const of = input.unitsOf(r.currency);
  // the transaction id (the form's "sale transaction ID number, if available"), the exact units when (a) rounds them, the note
  const reference = [`${r.disposalRef} (${r.part.replace('_', ' ')})`, unitsExact(r.units, of) ? '' : `exact units ${formatBase(r.units, of.scale)} ${of.symbol}`, line.note].filter((t) => t !== '').join('\n');
  const money = (v: bigint | null): Cell => ({ value: v === null ? null : Number(formatBase(v, input.minorUnits)), style: topAligned(moneyStyle(input.minorUnits, false)) });
  const top = (text: string): Cell => textCell(text, topAligned({}));
  const height = Math.max(linesIn(line.description, STATEMENT_WIDTHS[0]), linesIn(reference, STATEMENT_WIDTHS[8])) * LINE_PT;
  return [[textCell(line.description, wrapped({})), top(line.acquired), top(line.sold), money(line.proceeds), money(line.cost), top(line.codes), money(line.adjustment), money(line.gain), textCell(reference, wrapped({}))], height];
}

/**
 * Lines a wrapped text takes in a column: print-fit's estimate assumes a letter narrower than a
 * digit, but the UUIDs and figures here are digits and LibreOffice's substitute font is wider, so
 * each line holds fewer characters than the width — measured on the demo's statement, a 40-wide
 * column held 38.
 */
function linesIn(text: string, width: number): number {
  const perLine = Math.max(1, Math.floor(width * 0.9));
  return text.split('\n').reduce((n, part) => n + Math.max(1, Math.ceil(part.length / perLine)), 0);
}

const moneyStyles = new Map<string, Partial<Style>>();
/** two decimals, thousands separated, a negative amount in parentheses (the form's "Enter negative amounts in parentheses") */
function moneyStyle(scale: number, bold: boolean): Partial<Style> {
  const key = `${scale}|${bold}`;
  let style = moneyStyles.get(key);
  if (style === undefined) {
    const digits = scale === 0 ? '#,##0' : `#,##0.${'0'.repeat(scale)}`;
    style = { numFmt: `${digits};(${digits})`, ...(bold ? { font: BOLD_STYLE.font } : {}) };
    moneyStyles.set(key, style);
  }
  return style;
}

/** A header/footer section's text: `&` starts a code there, so a literal one is doubled. */
function footerText(text: string): string {
  return text.replaceAll('&', '&&');
}

