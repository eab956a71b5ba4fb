/**
 * What the workbook had to change in cells XLSX cannot hold as the CSV does (control characters,
 * texts past Excel's limit, amounts beyond 15 digits): summed over the tables for the manifest,
 * and said in plain words on the Overview so a reader knows the CSV files keep the original.
 */
import type { XlsxRenderStats } from './render-cells.js';

/** The stats of every table's sheet, added up; zero when the folder writes no workbook. */
export function sumXlsxStats(perTable: readonly XlsxRenderStats[], writesWorkbook: boolean): XlsxRenderStats {
  const total: XlsxRenderStats = { replacedControlChars: 0, truncatedTexts: 0, amountsAsText: 0, displayAmountsRounded: 0 };
  if (!writesWorkbook) return total;
  for (const s of perTable) {
    total.replacedControlChars += s.replacedControlChars;
    total.truncatedTexts += s.truncatedTexts;
    total.amountsAsText += s.amountsAsText;
    total.displayAmountsRounded += s.displayAmountsRounded;
  }
  return total;
}

/** The Overview's notes on those changes, one per kind that happened. */
export function xlsxNotes(stats: XlsxRenderStats): string[] {
  const notes: string[] = [];
  if (stats.replacedControlChars > 0) notes.push(`${stats.replacedControlChars} text cell(s) held control characters (e.g. NUL) that XLSX cannot store; they are shown as ␀-style symbols. The CSV files keep the original text.`);
  if (stats.truncatedTexts > 0) notes.push(`${stats.truncatedTexts} text cell(s) exceeded Excel's 32,767 characters and were cut; the CSV files have the full text.`);
  if (stats.amountsAsText > 0) notes.push(`${stats.amountsAsText} *_base cell(s) have more than 15 digits and are exact text; the display amount beside each is a number (rounded by Excel to 15 significant digits) that sums.`);
  return notes;
}
