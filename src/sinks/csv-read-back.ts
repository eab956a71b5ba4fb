/**
 * Reads back a CSV file this tool wrote (docs/reports.md "CSV format"): RFC 4180 records, a leading
 * byte-order mark skipped, CRLF or LF record delimiters, and the leading `'` that formula
 * neutralization put before a text cell's trigger character taken off again. For the few places a
 * run reads a folder it follows (the folder is the authority), never for files of other writers:
 * `payexport verify` checks those strictly (strict-csv-scanner.ts).
 */
import { FORMULA_TRIGGER_CHARS } from './cells.js';

const TRIGGERS: ReadonlySet<string> = new Set(FORMULA_TRIGGER_CHARS);

/** Every record of `text`, header first, each a list of field texts. */
export function csvRecords(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let quoted = false;
  const body = text.startsWith('\uFEFF') ? text.slice(1) : text;
  const endRecord = (): void => {
    record.push(field);
    records.push(record);
    record = [];
    field = '';
  };
  for (let i = 0; i < body.length; i++) {
    const ch = body[i] as string;
    if (quoted) {
      if (ch !== '"') field += ch;
      else if (body[i + 1] !== '"') quoted = false;
      else {
        field += '"';
        i++;
      }
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      record.push(field);
      field = '';
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && body[i + 1] === '\n') i++;
      endRecord();
    } else field += ch;
  }
  if (field !== '' || record.length > 0) endRecord();
  return records;
}

/** A text cell as it was before `neutralizeFormula` (cells.ts) prefixed its trigger with `'`. */
export function unneutralized(cell: string): string {
  return cell.startsWith("'") && TRIGGERS.has(cell[1] ?? '') ? cell.slice(1) : cell;
}

/** The records after the header as objects keyed by the header's names. */
export function csvRows(text: string): Array<Record<string, string>> {
  const [header = [], ...rows] = csvRecords(text);
  return rows.map((r) => Object.fromEntries(header.map((h, i) => [h, r[i] ?? ''])));
}
