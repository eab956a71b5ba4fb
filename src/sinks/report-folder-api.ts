/**
 * The report folder's public shape: the options it opens with, the handles a job writes tables
 * and files through, and what publish() takes and returns. Kept apart from the implementation
 * (report-folder.ts) so that jobs, the journal and the lots read the contract they program against
 * without the machinery behind it.
 */
import type { AssetRow } from '../model/rows.js';
import type { CheckResult, ControlTotals } from '../model/results.js';
import type { Window } from '../model/window.js';
import type { ExtraFileHandle, LaidOutSheet, TableHandle } from '../model/report-output.js';
import type { StreamingWorkbook } from './xlsx-workbook.js';
import type { CloseStatus } from './close-status.js';
import type { TableSpec } from '../model/column-spec.js';
import type { CsvOptions } from './csv-table-writer.js';
import type { Manifest } from './manifest.js';
import type { ManifestScope } from './output-scope.js';
import type { ManifestSigner } from '../audit/manifest-signature.js';
import type { CryptoOverview } from './overview-crypto.js';

export const WORKBOOK_FILE = 'report.xlsx';
export const FEES_HTML_FILE = 'fees.html';

export type ReportFormat = 'csv' | 'xlsx';

export interface ReportFolderOptions {
  /** output root (`--out`, default `reports/`) */
  outRoot: string;
  /** `month-end` | `nightly` | `export` | ... — the first folder level */
  job: string;
  /** `2026-10`, `2026-11-21`, `2026-10-01_2026-10-31` — the second folder level */
  period: string;
  /** the command line's command, for the manifest */
  command: string;
  /** the report window, half-open [from, to) in UTC, and the reporting time zone */
  window: Window;
  runId: string;
  formats?: readonly ReportFormat[];
  csv?: Partial<CsvOptions>;
  /** the snapshot records the period as closed: never overwrite it, write `<period>.amended-N` instead (a folder on disk that says closed does the same) */
  closed?: boolean;
  /** the organization, environments and wallets these files cover (manifest `scope`); a version of the period with another is refused */
  scope: ManifestScope;
  /** the reporting entity's name, on every printed page's header (default: the organization id) */
  entity?: string;
  /** asset decimals and names for display amounts */
  assets?: readonly AssetRow[];
  /** wallet names for the `wallet_name` column beside every `wallet_id` */
  wallets?: readonly { wallet_id: string; name: string }[];
  /** signs the manifest (docs/audit.md#signed-manifests); absent: the folder is not signed */
  signer?: ManifestSigner | null;
  /** wall clock for the manifest's started/finished times (injected in tests) */
  clock?: () => Date;
  /** the workbook's created/modified date and zip entry dates; default: the window's end */
  documentDate?: Date;
  /** rows per sheet, header included (default Excel's 1,048,576; tests use a small one) */
  maxRowsPerSheet?: number;
  /** bound on XLSX bytes waiting for the compressor (xlsx-workbook.ts) */
  maxBytesInFlight?: number;
  /** the fee charts on the Overview and their "Fee charts" sheet (default on; off for a chart-less comparison) */
  charts?: boolean;
}

// the handles the journal and the lots write through are theirs to name (model/report-output.ts)
export type { ExtraFileHandle, TableHandle };

export interface PublishInput {
  /** run parameters without secrets (redacted again defensively); shown on the Overview and in the manifest */
  parameters: Record<string, unknown>;
  controlTotals: ControlTotals;
  checks: readonly CheckResult[];
  /** extra counts for the manifest (requests, retries, duplicates seen, ...) */
  counts?: Record<string, number>;
  /** extra lines for the Overview's notes */
  notes?: readonly string[];
  /** whether the period is closed (Overview, manifest); default: not a closing run */
  close?: CloseStatus;
  /** the crypto subledger's block on the Overview (overview-crypto.ts) */
  crypto?: CryptoOverview;
}

/** A laid-out sheet: as data (sinks/laid-out-sheets.ts draws it), or written into the workbook by a function (ReportFolder.table). */
export type SheetLayout = LaidOutSheet | ((workbook: StreamingWorkbook) => Promise<void>);

export interface PublishResult {
  dir: string;
  manifest: Manifest;
  /** a closed period whose files are identical to its latest version: nothing was written */
  unchanged: boolean;
}

export interface ReportFolder {
  /** the temporary folder being written (for logs) */
  readonly tempDir: string;
  /** the folder name foreseen at open: the period or `<period>.amended-N` (publish() reads the disk again: period-publication.ts) */
  readonly folderName: string;
  /**
   * A table: its CSV and its sheet(s), one row per record. With `layout` (a spec marked `laidOut`),
   * the sheet is instead laid out by `layout` once the rows are written — a note read top to
   * bottom — and is not one of the workbook's table sheets.
   */
  table<Row>(spec: TableSpec<Row>, layout?: SheetLayout): Promise<TableHandle<Row>>;
  /** A file that is not a table (no sheet), open alongside tables; listed in the manifest after them. */
  extraFile(name: string): ExtraFileHandle;
  /** A CSV-only table (an import file for another system: no sheet, no Definitions entry). */
  extraCsv<Row>(spec: TableSpec<Row>): TableHandle<Row>;
  /**
   * A table's CSV file written ahead, beside the table being written (the report behind the pull
   * renders a wallet's ledger rows into ledger.csv while Payments is open). Its sheet comes later:
   * `table(spec)` then writes the same rows to the workbook only — nothing when the folder writes no
   * workbook (`writesWorkbook`) — and the table is listed where that call puts it.
   */
  csvAhead<Row>(spec: TableSpec<Row>): TableHandle<Row>;
  /** whether tables get sheets (the xlsx format) */
  readonly writesWorkbook: boolean;
  publish(input: PublishInput): Promise<PublishResult>;
  abort(): Promise<void>;
}
