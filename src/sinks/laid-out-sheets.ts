/**
 * The sheets a layer hands over as data rather than rows (model/report-output.ts `LaidOutSheet`),
 * each drawn by its own module here: the sinks own every cell of the workbook.
 */
import type { LaidOutSheet } from '../model/report-output.js';
import { writeCryptoNoteSheet } from './crypto-note-sheet.js';
import type { StreamingWorkbook } from './xlsx-workbook.js';

export async function drawLaidOut(workbook: StreamingWorkbook, sheet: LaidOutSheet): Promise<void> {
  switch (sheet.kind) {
    case 'crypto-note':
      return writeCryptoNoteSheet(workbook, sheet.note);
  }
}
