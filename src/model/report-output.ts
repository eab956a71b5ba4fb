/**
 * What the journal and the lots write their files through: a table (its CSV and its sheet), a file
 * that is not a table, an import CSV. The report folder (sinks/report-folder.ts) is one; the domain
 * layers program against this port and never reach the writers behind it.
 *
 * A laid-out sheet (a table written as a note rather than rows) is handed over as data
 * (`LaidOutSheet`); the report folder draws it.
 */
import type { TableSpec } from './column-spec.js';
import type { CryptoNote } from './crypto-note.js';
import type { JournalFees } from './journal-fees.js';

/** A sheet read top to bottom, as data: what it shows, not how (sinks/ draws it). */
export type LaidOutSheet = { kind: 'crypto-note'; note: CryptoNote };

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
  /**
   * A table: its CSV and its sheet(s); with `layout`, the sheet is drawn once the rows are written —
   * from data (a `LaidOutSheet`, drawn by the report folder) or by a function given the workbook.
   */
  table<Row>(spec: TableSpec<Row>, layout?: LaidOutSheet | ((sheet: Sheet) => Promise<void>)): Promise<TableHandle<Row>>;
  /** A file that is not a table (no sheet), listed in the manifest after the tables. */
  extraFile(name: string): ExtraFileHandle;
  /** A CSV-only table (an import file for another system: no sheet, no Definitions entry). */
  extraCsv<Row>(spec: TableSpec<Row>): TableHandle<Row>;
  /** The journal's fee expense as journal.csv holds it, for the Overview's fees in the books' currency (overview-fees.ts). */
  journalFees?(fees: JournalFees): void;
}
