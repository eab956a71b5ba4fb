/**
 * The handles through which a job streams rows into a report folder: one per kind of table
 * (a table with its CSV and sheets, a CSV written ahead of its sheet, a CSV-only import file).
 * Each counts its rows, refuses a write after close, and turns an I/O failure into the
 * cantCreate AppError naming the file (output-file.ts); the folder keeps the bookkeeping of
 * which tables are open, written ahead or done (report-folder.ts).
 */
import type { CsvTableWriter, FileResult } from './csv-table-writer.js';
import { outputError } from './output-file.js';
import type { TableHandle } from './report-folder-api.js';
import type { XlsxTableSheets, SheetResult } from './xlsx-table-sheets.js';

/** A table's CSV written ahead of its sheet: `closed` is set once the CSV is complete. */
export interface AheadPart {
  abort(): Promise<void>;
  closed: { rows: number; csv: FileResult | null } | null;
}

function failingWith(path: string): (error: unknown) => never {
  return (error) => {
    throw outputError(error, path);
  };
}

/** The handle of ReportFolder.csvAhead: rows to the CSV only (none when the folder writes no CSV). */
export function csvAheadHandle<Row>(id: string, writer: CsvTableWriter<Row> | null, part: AheadPart, csvPath: string): TableHandle<Row> {
  let rows = 0;
  const fail = failingWith(csvPath);
  const handle: TableHandle<Row> = {
    write: (row) => {
      if (part.closed !== null) throw new Error(`table ${id}'s CSV is closed`);
      rows += 1;
      try {
        return writer?.write(row)?.then(() => undefined, fail);
      } catch (error) {
        return fail(error);
      }
    },
    writeAll: async (all) => {
      for (const row of all) await handle.write(row);
    },
    close: async () => {
      try {
        part.closed = { rows, csv: writer === null ? null : await writer.close() };
      } catch (error) {
        fail(error);
      }
      return { rows };
    },
  };
  return handle;
}

/** The handle of ReportFolder.extraCsv: an import file for another system, reported by `done`. */
export function extraCsvHandle<Row>(writer: CsvTableWriter<Row>, done: (result: FileResult) => void): TableHandle<Row> {
  let rows = 0;
  const handle: TableHandle<Row> = {
    write: (row) => {
      rows += 1;
      return writer.write(row);
    },
    writeAll: async (all) => {
      for (const row of all) await handle.write(row);
    },
    close: async () => {
      done(await writer.close());
      return { rows };
    },
  };
  return handle;
}

export interface TableParts<Row> {
  id: string;
  csvPath: string;
  /** the CSV writer, null when the folder writes no CSV or the CSV was written ahead */
  csv: CsvTableWriter<Row> | null;
  /** the table's sheets, null without a workbook or for a laid-out sheet */
  sheets: XlsxTableSheets<Row> | null;
  /** the CSV written ahead, if any: its rows are the sheet's */
  ahead: AheadPart | undefined;
  /** what else reads the rows as they pass (the fee picture, balances, chart cells) */
  observe: ((row: Row) => void) | null;
  /** lays out the sheet of a laid-out table once its rows are written */
  layout: (() => Promise<void>) | null;
  /** a sheet drawn after the table's own (its print view, print-view.ts) */
  after?: (() => Promise<void>) | null;
  /** records the written table; called once, at close */
  done: (outcome: { rows: number; csv: FileResult | null; sheets: SheetResult[] }) => void;
}

/** The handle of ReportFolder.table: each row to the CSV and the sheets in the same pass. */
export function tableHandle<Row>(parts: TableParts<Row>): { handle: TableHandle<Row>; abort(): Promise<void> } {
  const { id, csv, sheets, ahead, observe } = parts;
  let rows = 0;
  let closed = false;
  const fail = failingWith(parts.csvPath);
  const handle: TableHandle<Row> = {
    write: (row) => {
      if (closed) throw new Error(`table ${id} is closed`);
      rows += 1;
      observe?.(row);
      let a: Promise<void> | undefined;
      let b: Promise<void> | undefined;
      try {
        a = csv?.write(row);
        b = sheets?.write(row);
      } catch (error) {
        fail(error);
      }
      if (a === undefined && b === undefined) return undefined;
      return Promise.all([a, b]).then(() => undefined, fail);
    },
    writeAll: async (all) => {
      for (const row of all) await handle.write(row);
    },
    close: async () => {
      if (closed) throw new Error(`table ${id} is already closed`);
      closed = true;
      try {
        const csvResult = ahead?.closed ? ahead.closed.csv : csv === null ? null : await csv.close();
        const xlsxResult = sheets === null ? null : await sheets.close();
        if (parts.layout !== null) await parts.layout();
        if (parts.after) await parts.after();
        // the sheet repeats the rows of the CSV written ahead: the same count, or it is a bug
        if (ahead?.closed && sheets !== null && rows !== ahead.closed.rows) throw new Error(`table ${id}: ${rows} row(s) in the sheet, ${ahead.closed.rows} in the CSV written ahead`);
        const total = ahead?.closed && sheets === null ? ahead.closed.rows : rows;
        parts.done({ rows: total, csv: csvResult, sheets: xlsxResult?.sheets ?? [] });
        return { rows: total };
      } catch (error) {
        return fail(error);
      }
    },
  };
  const abort = async (): Promise<void> => {
    closed = true;
    await csv?.abort();
  };
  return { handle, abort };
}
