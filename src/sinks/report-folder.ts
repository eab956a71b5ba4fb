/**
 * A report folder's one lifecycle: open → table() → write rows → close, table after table →
 * publish() | abort(). The public API of src/sinks for the jobs:
 *
 *   const folder = await openReportFolder({ outRoot, job: 'month-end', period: '2026-10', command: 'month-end',
 *                                           window, runId, formats: ['csv', 'xlsx'], csv: { bom, eol }, closed, assets });
 *   const payments = await folder.table(PAYMENTS_TABLE);   // one table open at a time
 *   for (const row of rows) await payments.write(row);     // backpressure-aware (resolves at once mostly)
 *   await payments.close();                                // → { rows }
 *   ... LEDGER_TABLE, FEES_TABLE, BALANCES_TABLE, SUMMARY_CHECK_TABLE, EXCEPTIONS_TABLE, OPEN_ITEMS_TABLE ...
 *   const { dir, manifest } = await folder.publish({ parameters, controlTotals, checks });   // or folder.abort()
 *
 * Each table writes its CSV file and its XLSX sheet(s) in the same pass; tables the caller never
 * opened are written empty at publish, so a folder always has every contract file. publish()
 * adds Fee charts (the cells of the Overview's charts, fee-charts.ts), Definitions and the
 * Overview (first tab), fees.html and manifest.json, then renames the
 * temporary folder into place (atomic-folder.ts). On any failure call abort(): nothing partial
 * is left. Errors: bad names → usage AppError (64); I/O → cantCreate AppError (74).
 */
import { createHash } from 'node:crypto';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { AssetRow, PaymentRow } from '../model/rows.js';
import type { BalanceRow, BillCheckRow, CheckResult, ControlTotals, FeeRow } from '../model/results.js';
import { tieOut } from '../reconcile/tie-out.js';
import { BalanceSummary } from './balance-summary.js';
import { closeStatus, type CloseStatus } from './close-status.js';
import type { Window } from '../model/window.js';
import { instantFromDate } from '../model/instant.js';
import { usageError } from '../util/errors.js';
import { cleanStaleFolders, createTempFolder } from './atomic-folder.js';
import type { AnyTableSpec, TableSpec } from './column-spec.js';
import { CsvTableWriter, DEFAULT_CSV_OPTIONS, type CsvOptions, type FileResult } from './csv-table-writer.js';
import { writeDefinitionsSheet } from './definitions-sheet.js';
import { FeePicture, renderFeesHtml } from './fees-picture.js';
import { FeeChartData, writeFeeChartsSheet } from './fee-charts.js';
import { assertSafeName, insideRoot, tempName } from './folder-paths.js';
import type { ManifestScope } from './output-scope.js';
import { publishTarget, readPeriodOnDisk, type PublishTarget } from './period-on-disk.js';
import { publishPeriod } from './period-publication.js';
import { controlTotalsJson, csvManifest, MANIFEST_FILE, MANIFEST_SCHEMA_VERSION, redactParameters, type Manifest, type ManifestFile } from './manifest.js';
import { FILE_MODE, outputError } from './output-file.js';
import { writeOverviewSheet } from './overview-sheet.js';
import type { CryptoOverview } from './overview-crypto.js';
import { compileTable, type RenderContext, type XlsxRenderStats } from './render-cells.js';
import { ALL_TABLES, BALANCES_TABLE, BILLS_TABLE, FEES_TABLE, OPEN_ITEMS_TABLE, PAYMENTS_TABLE } from './tables/index.js';
import { toolInfo } from './tool-info.js';
import { EXCEL_MAX_ROWS } from './cells.js';
import { StreamingWorkbook } from './xlsx-workbook.js';
import { TextFileWriter } from './text-file-writer.js';
import { XlsxTableSheets, type SheetResult } from './xlsx-table-sheets.js';
import { ZonedClock } from './zoned-time.js';

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
  /** asset decimals and names for display amounts */
  assets?: readonly AssetRow[];
  /** wallet names for the `wallet_name` column beside every `wallet_id` */
  wallets?: readonly { wallet_id: string; name: string }[];
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

/** Writes a laid-out sheet into the workbook (ReportFolder.table). */
export type SheetLayout = (workbook: StreamingWorkbook) => Promise<void>;

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

interface TableOutcome {
  spec: AnyTableSpec;
  rows: number;
  csv: FileResult | null;
  sheets: SheetResult[];
}

export async function openReportFolder(options: ReportFolderOptions): Promise<ReportFolder> {
  assertSafeName('job', options.job);
  assertSafeName('period', options.period);
  assertSafeName('run id', options.runId);
  const formats = new Set<ReportFormat>(options.formats ?? ['csv', 'xlsx']);
  if (formats.size === 0) throw usageError('bad_format', 'at least one output format is needed (csv, xlsx)');
  const clock = new ZonedClock(options.window.tz);
  const jobDir = insideRoot(options.outRoot, options.job);
  try {
    await cleanStaleFolders(jobDir);
    // the folder is the authority (period-on-disk.ts): read now, so a folder that cannot be read
    // stops the run before anything is written, and again at publish
    const target = publishTarget(options.period, await readPeriodOnDisk(jobDir, options.period, options.scope), options.closed === true);
    insideRoot(options.outRoot, options.job, target.name);
    const tempDir = await createTempFolder(jobDir, tempName(target.name, options.runId));
    return new ReportFolderImpl(options, formats, clock, jobDir, tempDir, target);
  } catch (error) {
    throw outputError(error, jobDir);
  }
}

class ReportFolderImpl implements ReportFolder {
  private readonly ctx: RenderContext;
  private readonly csvOptions: CsvOptions;
  private readonly workbook: StreamingWorkbook | null;
  private readonly outcomes: TableOutcome[] = [];
  private readonly xlsxStats: XlsxRenderStats[] = [];
  private readonly fees = new FeePicture();
  private readonly chartData: FeeChartData;
  private readonly balances = new BalanceSummary();
  private readonly startedAt: Date;
  private readonly wallClock: () => Date;
  private current: { abort(): Promise<void> } | null = null;
  private readonly extras = new Map<string, { abort(): Promise<void>; result: ManifestFile | null }>();
  /** CSV files written ahead of their tables' sheets (csvAhead), by table id */
  private readonly ahead = new Map<string, { abort(): Promise<void>; closed: { rows: number; csv: FileResult | null } | null }>();
  private state: 'open' | 'publishing' | 'done' = 'open';

  constructor(
    private readonly options: ReportFolderOptions,
    private readonly formats: ReadonlySet<ReportFormat>,
    clock: ZonedClock,
    private readonly jobDir: string,
    readonly tempDir: string,
    /** the name foreseen at open (for logs); publish decides again from the disk */
    private readonly target: PublishTarget,
  ) {
    const assets = options.assets ?? [];
    this.ctx = {
      clock,
      asOf: options.window.to,
      assetDecimals: new Map(assets.map((a) => [a.currency, a.decimal_display])),
      assetNames: new Map(assets.map((a) => [a.currency, a.name])),
      walletNames: new Map((options.wallets ?? []).filter((w) => w.name !== '').map((w) => [w.wallet_id, w.name])),
    };
    this.chartData = new FeeChartData(clock);
    this.csvOptions = { ...DEFAULT_CSV_OPTIONS, ...options.csv };
    this.wallClock = options.clock ?? (() => new Date());
    this.startedAt = this.wallClock();
    this.workbook = formats.has('xlsx')
      ? StreamingWorkbook.open({
          path: join(tempDir, WORKBOOK_FILE),
          documentDate: options.documentDate ?? new Date(options.window.to.slice(0, 23) + 'Z'),
          creator: `${toolInfo().name} ${toolInfo().version}`,
          ...(options.maxBytesInFlight === undefined ? {} : { maxBytesInFlight: options.maxBytesInFlight }),
        })
      : null;
  }

  get folderName(): string {
    return this.target.name;
  }

  get writesWorkbook(): boolean {
    return this.workbook !== null;
  }

  csvAhead<Row>(spec: TableSpec<Row>): TableHandle<Row> {
    if (this.state !== 'open') throw new Error('the report folder is already published or aborted');
    if (this.ahead.has(spec.id) || this.outcomes.some((o) => o.spec.id === spec.id)) throw new Error(`table ${spec.id} was already written`);
    assertSafeName('table file', spec.file);
    const csvPath = join(this.tempDir, spec.file);
    const writer = this.formats.has('csv') ? CsvTableWriter.open(compileTable(spec, this.ctx), csvPath, this.csvOptions) : null;
    const part = { abort: async (): Promise<void> => writer?.abort(), closed: null as { rows: number; csv: FileResult | null } | null };
    this.ahead.set(spec.id, part);
    let rows = 0;
    const fail = (error: unknown): never => {
      throw outputError(error, csvPath);
    };
    const handle: TableHandle<Row> = {
      write: (row) => {
        if (part.closed !== null) throw new Error(`table ${spec.id}'s CSV is closed`);
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

  async table<Row>(spec: TableSpec<Row>, layout?: SheetLayout): Promise<TableHandle<Row>> {
    if (this.state !== 'open') throw new Error('the report folder is already published or aborted');
    if ((spec.laidOut === true) !== (layout !== undefined)) throw new Error(`table ${spec.id}: a laid-out sheet needs its layout, and only such a table takes one`);
    return this.openTable(spec, layout);
  }

  extraFile(name: string): ExtraFileHandle {
    const extra = this.openExtra(name);
    const writer = new TextFileWriter(join(this.tempDir, name));
    extra.abort = () => writer.abort();
    return {
      write: (text) => writer.write(text),
      close: async (rows) => {
        extra.result = { path: name, ...(await writer.close(rows)) };
      },
    };
  }

  extraCsv<Row>(spec: TableSpec<Row>): TableHandle<Row> {
    const extra = this.openExtra(spec.file);
    const writer = CsvTableWriter.open(compileTable(spec, this.ctx), join(this.tempDir, spec.file), this.csvOptions);
    extra.abort = () => writer.abort();
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
        extra.result = { path: spec.file, ...(await writer.close()) };
        return { rows };
      },
    };
    return handle;
  }

  private openExtra(name: string): { abort(): Promise<void>; result: ManifestFile | null } {
    if (this.state !== 'open') throw new Error('the report folder is already published or aborted');
    assertSafeName('file', name);
    if (this.extras.has(name) || this.outcomes.some((o) => o.spec.file === name)) throw new Error(`file ${name} was already written`);
    const extra = { abort: async (): Promise<void> => undefined, result: null as ManifestFile | null };
    this.extras.set(name, extra);
    return extra;
  }

  private openTable<Row>(spec: TableSpec<Row>, layout?: SheetLayout): TableHandle<Row> {
    if (this.current !== null) throw new Error(`a table is still open: close it before opening ${spec.id} (tables are written one after another)`);
    if (this.outcomes.some((o) => o.spec.id === spec.id)) throw new Error(`table ${spec.id} was already written`);
    assertSafeName('table file', spec.file);
    const compiled = compileTable(spec, this.ctx);
    this.xlsxStats.push(compiled.xlsxStats);
    const csvPath = join(this.tempDir, spec.file);
    const ahead = this.ahead.get(spec.id);
    if (ahead !== undefined && ahead.closed === null) throw new Error(`table ${spec.id}'s CSV written ahead is still open`);
    const csv = this.formats.has('csv') && ahead === undefined ? CsvTableWriter.open(compiled, csvPath, this.csvOptions) : null;
    const sheets = this.workbook === null || layout !== undefined ? null : new XlsxTableSheets(this.workbook, compiled, this.options.maxRowsPerSheet ?? EXCEL_MAX_ROWS);
    // fees.csv rows also feed the picture (Overview data bars, fees.html); payments (fees by day) and
    // bills (billed vs computed) feed the Overview's charts
    const charts = this.workbook !== null && this.options.charts !== false;
    const observe =
      (spec as AnyTableSpec) === (FEES_TABLE as AnyTableSpec)
        ? (row: Row) => this.fees.add(row as unknown as FeeRow)
        : (spec as AnyTableSpec) === (BALANCES_TABLE as AnyTableSpec)
          ? (row: Row) => this.balances.add(row as unknown as BalanceRow)
          : charts && (spec as AnyTableSpec) === (PAYMENTS_TABLE as AnyTableSpec)
            ? (row: Row) => this.chartData.addPayment(row as unknown as PaymentRow)
            : charts && (spec as AnyTableSpec) === (BILLS_TABLE as AnyTableSpec)
              ? (row: Row) => this.chartData.addBill(row as unknown as BillCheckRow)
              : null;
    let rows = 0;
    let closed = false;
    const fail = (error: unknown): never => {
      throw outputError(error, csvPath);
    };
    const handle: TableHandle<Row> = {
      write: (row) => {
        if (closed) throw new Error(`table ${spec.id} is closed`);
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
        if (closed) throw new Error(`table ${spec.id} is already closed`);
        closed = true;
        try {
          const csvResult = ahead?.closed ? ahead.closed.csv : csv === null ? null : await csv.close();
          const xlsxResult = sheets === null ? null : await sheets.close();
          if (layout !== undefined && this.workbook !== null) await layout(this.workbook);
          // the sheet repeats the rows of the CSV written ahead: the same count, or it is a bug
          if (ahead?.closed && sheets !== null && rows !== ahead.closed.rows) throw new Error(`table ${spec.id}: ${rows} row(s) in the sheet, ${ahead.closed.rows} in the CSV written ahead`);
          const total = ahead?.closed && sheets === null ? ahead.closed.rows : rows;
          this.outcomes.push({ spec: spec as AnyTableSpec, rows: total, csv: csvResult, sheets: xlsxResult?.sheets ?? [] });
          this.current = null;
          return { rows: total };
        } catch (error) {
          return fail(error);
        }
      },
    };
    this.current = {
      abort: async () => {
        closed = true;
        await csv?.abort();
      },
    };
    return handle;
  }

  async publish(input: PublishInput): Promise<PublishResult> {
    if (this.state !== 'open') throw new Error('the report folder is already published or aborted');
    if (this.current !== null) throw new Error('a table is still open: close it before publishing');
    const unclosed = [...this.extras].find(([, e]) => e.result === null);
    if (unclosed !== undefined) throw new Error(`file ${unclosed[0]} is still open: close it before publishing`);
    const unfinished = [...this.ahead].find(([id, part]) => part.closed === null || !this.outcomes.some((o) => o.spec.id === id));
    if (unfinished !== undefined) throw new Error(`table ${unfinished[0]}'s CSV was written ahead but the table was not written: call table() for it before publishing`);
    this.state = 'publishing';
    try {
      for (const spec of ALL_TABLES) {
        if (!this.outcomes.some((o) => o.spec.id === spec.id)) await this.openTable(spec).close();
      }
      const parameters = redactParameters(input.parameters) as Record<string, unknown>;
      const files: ManifestFile[] = [];
      // contract tables in contract order, then any extra table in the order it was written
      const contract = ALL_TABLES.map((spec) => this.outcomes.find((o) => o.spec.id === spec.id)).filter((o): o is TableOutcome => o !== undefined);
      const ordered = [...contract, ...this.outcomes.filter((x) => !contract.includes(x))];
      for (const o of ordered) {
        if (o.csv !== null) files.push({ path: o.spec.file, rows: o.csv.rows, bytes: o.csv.bytes, sha256: o.csv.sha256 });
      }
      for (const extra of this.extras.values()) if (extra.result !== null) files.push(extra.result);
      const stats = this.totalXlsxStats();
      const close = input.close ?? closeStatus({ closing: false, allowOpen: false, closedBefore: false, openItems: this.outcomes.find((o) => o.spec.id === OPEN_ITEMS_TABLE.id)?.rows ?? 0, period: this.options.period });
      const verdict = tieOut(input.checks);
      const notes = [...(input.notes ?? []), ...xlsxNotes(stats)];
      if (this.workbook !== null) {
        const chartPanels = this.options.charts === false ? [] : await writeFeeChartsSheet(this.workbook, this.fees, this.chartData, { ...this.ctx, tz: this.options.window.tz });
        await writeDefinitionsSheet(this.workbook, this.outcomes.map((o) => o.spec), this.options.window.tz, []);
        await writeOverviewSheet(
          this.workbook,
          {
            title: `${this.options.job} report · ${this.options.period}`,
            subtitle: `Window ${this.ctx.clock.iso(this.options.window.from) ?? ''} to ${this.ctx.clock.iso(this.options.window.to) ?? ''} (${this.options.window.tz}), end excluded. Run id, run times and file hashes: manifest.json.`,
            parameters: overviewParameters(this.options, parameters),
            checks: input.checks,
            controlTotals: input.controlTotals,
            tables: ordered.map((o) => ({ sheet: o.spec.sheet, file: o.csv === null ? null : o.spec.file, rows: o.rows })),
            fees: this.fees,
            chartPanels,
            balances: this.balances,
            close,
            notes,
            ...(input.crypto === undefined ? {} : { crypto: input.crypto }),
          },
          this.ctx,
        );
        const book = await this.workbook.commit();
        // the workbook's tab order: the order the tables were written (the journal's sheet sits before Exceptions)
        const sheets = this.outcomes.flatMap((o) => o.sheets);
        // its rows: the data rows of its table sheets (subtotal rows included; a laid-out sheet is not a table sheet)
        files.push({ path: WORKBOOK_FILE, rows: sheets.reduce((n, s) => n + s.rows - 1, 0), bytes: book.bytes, sha256: book.sha256, sheets });
      }
      const html = renderFeesHtml(this.fees, { title: `Fees by wallet and rail · ${this.options.job} ${this.options.period}`, subtitle: `Window ${this.ctx.clock.iso(this.options.window.from) ?? ''} to ${this.ctx.clock.iso(this.options.window.to) ?? ''} (${this.options.window.tz}), completed payments.` }, this.ctx);
      files.push(await this.writeSmallFile(FEES_HTML_FILE, html, this.fees.groups().reduce((n, g) => n + g.bars.length, 0)));

      const counts: Record<string, number> = { ...(input.counts ?? {}) };
      for (const o of ordered) counts[o.spec.id] = o.rows;
      const manifestFor = (target: PublishTarget): Manifest => ({
        schema_version: MANIFEST_SCHEMA_VERSION,
        run_id: this.options.runId,
        command: this.options.command,
        tool: toolInfo(),
        job: this.options.job,
        period: this.options.period,
        folder: target.name,
        amendment: target.amendment,
        window: { from: this.options.window.from, to: this.options.window.to, tz: this.options.window.tz },
        scope: this.options.scope,
        started_at: instantFromDate(this.startedAt),
        finished_at: instantFromDate(this.wallClock()),
        parameters,
        csv: this.formats.has('csv') ? csvManifest(this.csvOptions) : null,
        xlsx:
          this.workbook === null
            ? null
            : { max_rows_per_sheet: this.options.maxRowsPerSheet ?? EXCEL_MAX_ROWS, control_chars_replaced: stats.replacedControlChars, texts_truncated: stats.truncatedTexts, amounts_as_text: stats.amountsAsText, display_amounts_rounded: stats.displayAmountsRounded },
        counts,
        tie_out: { ties: verdict.ties, errors: verdict.errors, warnings: verdict.warnings, info: verdict.info, headline: verdict.headline },
        close,
        control_totals: controlTotalsJson(input.controlTotals),
        checks: [...input.checks],
        files,
      });
      const published = await publishPeriod({
        tempDir: this.tempDir,
        jobDir: this.jobDir,
        period: this.options.period,
        scope: this.options.scope,
        closedBySnapshot: this.options.closed === true,
        runId: this.options.runId,
        files,
        // Extra files are derived from the tables (an amended journal holds only what was not yet
        // exported): the tables and the workbook decide whether anything changed.
        compared: (path) => !this.extras.has(path),
        manifestFor,
        writeManifest: async (text) => {
          await this.writeSmallFile(MANIFEST_FILE, text, 0);
        },
      });
      this.state = 'done';
      return published;
    } catch (error) {
      await this.abort();
      throw outputError(error, this.tempDir);
    }
  }

  async abort(): Promise<void> {
    if (this.state === 'done') return;
    this.state = 'done';
    await this.current?.abort().catch(() => undefined);
    this.current = null;
    for (const extra of this.extras.values()) if (extra.result === null) await extra.abort().catch(() => undefined);
    for (const part of this.ahead.values()) if (part.closed === null) await part.abort().catch(() => undefined);
    await this.workbook?.abort().catch(() => undefined);
    await rm(this.tempDir, { recursive: true, force: true }).catch(() => undefined);
  }

  private totalXlsxStats(): XlsxRenderStats {
    const total: XlsxRenderStats = { replacedControlChars: 0, truncatedTexts: 0, amountsAsText: 0, displayAmountsRounded: 0 };
    if (this.workbook === null) return total;
    for (const s of this.xlsxStats) {
      total.replacedControlChars += s.replacedControlChars;
      total.truncatedTexts += s.truncatedTexts;
      total.amountsAsText += s.amountsAsText;
      total.displayAmountsRounded += s.displayAmountsRounded;
    }
    return total;
  }

  private async writeSmallFile(name: string, content: string, rows: number): Promise<ManifestFile> {
    const bytes = Buffer.from(content, 'utf8');
    await writeFile(join(this.tempDir, name), bytes, { mode: FILE_MODE, flag: 'wx', flush: true });
    return { path: name, rows, bytes: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') };
  }

}

function xlsxNotes(stats: XlsxRenderStats): string[] {
  const notes: string[] = [];
  if (stats.replacedControlChars > 0) notes.push(`${stats.replacedControlChars} text cell(s) held control characters (e.g. NUL) that XLSX cannot store; they are shown as ␀-style symbols. The CSV files keep the original text.`);
  if (stats.truncatedTexts > 0) notes.push(`${stats.truncatedTexts} text cell(s) exceeded Excel's 32,767 characters and were cut; the CSV files have the full text.`);
  if (stats.amountsAsText > 0) notes.push(`${stats.amountsAsText} *_base cell(s) have more than 15 digits and are exact text; the display amount beside each is a number (rounded by Excel to 15 significant digits) that sums.`);
  return notes;
}

function overviewParameters(options: ReportFolderOptions, parameters: Record<string, unknown>): [string, string][] {
  const tool = toolInfo();
  const rows: [string, string][] = [
    ['report', options.job],
    ['period', options.period],
    ['window start (UTC)', options.window.from],
    ['window end, excluded (UTC)', options.window.to],
    ['time zone', options.window.tz],
    ['tool', `${tool.name} ${tool.version}`],
  ];
  for (const key of Object.keys(parameters).sort()) {
    const value = parameters[key];
    rows.push([key, typeof value === 'string' ? value : JSON.stringify(value)]);
  }
  return rows;
}
