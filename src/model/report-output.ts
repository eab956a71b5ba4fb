/**
 * What the journal and the lots write their files through: a table (its CSV and its sheet), a file
 * that is not a table, an import CSV. The report folder (sinks/report-folder.ts) is one; the domain
 * layers program against this port and never reach the writers behind it.
 *
 * `Sheet` is what a laid-out sheet is drawn on (a table written as a note rather than rows): the
 * workbook, for the one caller that lays a sheet out; none for the others.
 */
import type { TableSpec } from './column-spec.js';

export interface TableHandle<Row> {
  /** Writes a row; await it — it resolves at once unless a buffer is full. */
  write(row: Row): Promise<void> | undefined;
  writeAll(rows: Iterable<Row>): Promise<void>;
  close(): Promise<{ rows: number }>;
}

export interface ExtraFileHandle {
  write(text: string): Promise<void> | undefined;
  /** `rows`: what the manifest records for the file */
  close(rows: number): Promise<void>;
}

export interface ReportTables<Sheet = unknown> {
  /** A table: its CSV and its sheet(s); with `layout`, the sheet is laid out by it once the rows are written. */
  table<Row>(spec: TableSpec<Row>, layout?: (sheet: Sheet) => Promise<void>): Promise<TableHandle<Row>>;
  /** A file that is not a table (no sheet), listed in the manifest after the tables. */
  extraFile(name: string): ExtraFileHandle;
  /** A CSV-only table (an import file for another system: no sheet, no Definitions entry). */
  extraCsv<Row>(spec: TableSpec<Row>): TableHandle<Row>;
}
