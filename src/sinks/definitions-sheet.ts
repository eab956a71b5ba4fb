/**
 * The Definitions sheet: the column dictionary of every table in the workbook, generated from the
 * same specs that wrote the sheets, followed by the rules a reader needs (unknown vs zero, time
 * zone, formula neutralization, text amounts, replaced characters).
 */
import { COLUMN_TYPE_INFO, tableColumns, type AnyTableSpec } from '../model/column-spec.js';
import { FORMULA_TRIGGER_CHARS } from './cells.js';
import type { Style } from 'exceljs';
import { HEADER_STYLE, PLAIN_STYLE, putRow, putWrapped, textCell, BOLD_STYLE, SECTION_STYLE, wrapped } from './xlsx-cells.js';
import { LINE_PT, wrappedLines } from './print-fit.js';
import { tableSheetOptions } from './xlsx-table-sheets.js';
import { columnLetter } from './xlsx-row-xml.js';
import type { StreamingWorkbook } from './xlsx-workbook.js';

export const DEFINITIONS_SHEET = 'Definitions';

/** The rules shown under the dictionary and in docs/reports.md. */
export function readingRules(tz: string): string[] {
  const triggers = FORMULA_TRIGGER_CHARS.map((c) => JSON.stringify(c).slice(1, -1)).join(' ');
  return [
    'An empty amount means unknown — never zero. Unknown fees are listed on the Exceptions sheet.',
    `Date-time columns without a suffix are in the reporting time zone (${tz}); the *_utc column beside each holds the exact instant in UTC with microseconds.`,
    '*_base columns hold integer base units (BTC: millisatoshis, USD: cents, assets: base units); the column without _base shows the same amount in display units of display_currency.',
    'Display amounts (the columns without _base) are always numbers, so a column can be summed. Excel keeps 15 significant digits: a BTC amount of 124,312.91030152433 (17 digits) shows as 124,312.910301524. The exact value is in the *_base column beside it (integer base units), written as a number when it has at most 15 digits and as exact text (with a note) when it has more; the CSV files always hold the exact digits, and manifest.json the exact control totals.',
    `Text that starts with ${triggers} is prefixed with an apostrophe (') so that no spreadsheet reads it as a formula.`,
    'Characters that an XLSX file cannot hold (NUL and other control characters) are shown as the symbols ␀ ␁ … (Unicode Control Pictures); the CSV files keep the original text.',
    'Text longer than 32,767 characters is cut in the workbook, and CR / CRLF line breaks become LF; the CSV files keep the text as received.',
    'Sheets longer than 1,048,576 rows continue on a sheet with the same name and " (2)", " (3)", ...',
    'Printing: every sheet prints landscape on A4 (or Letter), fitted to as many pages across as keeps its text at 8 pt or more and as many pages down as it needs, pages numbered across then down, the header row repeated on every page. Payments prints its reading columns (created_at through route); the ids, UTC times and base units after them stay on screen and in the CSV.',
  ];
}

/** sheet, column, type, CSV, XLSX, description: the widths fit one landscape page across (print-fit.ts) */
const WIDTHS = [13, 27, 17, 21, 21, 39];
const TOP_STYLE: Partial<Style> = { alignment: { vertical: 'top' } };

export async function writeDefinitionsSheet(workbook: StreamingWorkbook, tables: readonly AnyTableSpec[], tz: string, extraNotes: readonly string[]): Promise<void> {
  const sheet = workbook.addSheet(DEFINITIONS_SHEET, tableSheetOptions(WIDTHS));
  sheet.columns = WIDTHS.map((width) => ({ width }));
  putRow(sheet, ['sheet', 'column', 'type', 'CSV', 'XLSX', 'description'].map((h) => textCell(h, HEADER_STYLE)));
  let last = 1;
  for (const table of tables) {
    for (const col of tableColumns(table)) {
      const info = COLUMN_TYPE_INFO[col.type];
      // a laid-out sheet (a note) does not show these columns: they are its CSV's
      const texts = [table.laidOut === true ? table.file : table.sheet, col.name, info.label, info.csv, info.xlsx, col.description];
      // the long texts wrap within their columns; the row is as tall as the longest of them
      const lines = Math.max(...texts.map((t, i) => wrappedLines(t, WIDTHS[i] as number)));
      last = putRow(sheet, texts.map((t, i) => textCell(t, i === 1 ? { ...BOLD_STYLE, ...TOP_STYLE } : i >= 3 ? wrapped(PLAIN_STYLE) : TOP_STYLE)), lines * LINE_PT);
    }
  }
  sheet.autoFilter = `A1:${columnLetter(WIDTHS.length)}${last}`;
  putRow(sheet, []);
  putRow(sheet, [textCell('How to read these files', SECTION_STYLE)]);
  for (const rule of [...readingRules(tz), ...extraNotes]) putWrapped(sheet, rule, WIDTHS);
  await workbook.commitSheet(sheet);
}
