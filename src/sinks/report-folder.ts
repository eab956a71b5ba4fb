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
 *
 * This file holds the folder's bookkeeping (which table is open, written ahead or done, and the
 * order of publishing); the public types are in report-folder-api.ts, the row handles in
 * folder-table-handles.ts, the closing pages in folder-overview-pages.ts and the manifest in
 * published-manifest.ts.
 */
import { createHash } from 'node:crypto';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { EVIDENCE_FILE } from '../audit/evidence-log.js';
import type { PaymentRow } from '../model/rows.js';
import type { BalanceRow, BillCheckRow, FeeRow } from '../model/results.js';
import { usageError } from '../util/errors.js';
import { cleanStaleFolders, createTempFolder } from './atomic-folder.js';
import { BalanceSummary } from './balance-summary.js';
import { EXCEL_MAX_ROWS } from './cells.js';
import { closeStatus, type CloseStatus } from './close-status.js';
import type { AnyTableSpec, TableSpec } from '../model/column-spec.js';
import { CsvTableWriter, DEFAULT_CSV_OPTIONS, type CsvOptions, type FileResult } from './csv-table-writer.js';
import { FeeChartData } from './fee-charts.js';
import { FeePicture, renderFeesHtml } from './fees-picture.js';
import { PrintViewSpool } from './print-view.js';
import type { JournalFees } from '../model/journal-fees.js';
import { publishedManifest } from './published-manifest.js';
import { writeOverviewPages } from './folder-overview-pages.js';
import { assertSafeName, insideRoot, tempName } from './folder-paths.js';
import { csvAheadHandle, extraCsvHandle, tableHandle, type AheadPart } from './folder-table-handles.js';
import { MANIFEST_FILE, redactParameters, type ManifestFile } from './manifest.js';
import { FILE_MODE, outputError } from './output-file.js';
import { publishTarget, readPeriodOnDisk, type PublishTarget } from './period-on-disk.js';
import { publishPeriod } from './period-publication.js';
import { compileTable, type RenderContext, type XlsxRenderStats } from './render-cells.js';
import { FEES_HTML_FILE, WORKBOOK_FILE, type ExtraFileHandle, type PublishInput, type PublishResult, type ReportFolder, type ReportFolderOptions, type ReportFormat, type SheetLayout, type TableHandle } from './report-folder-api.js';
import { ALL_TABLES, BALANCES_TABLE, BILLS_TABLE, FEES_TABLE, OPEN_ITEMS_TABLE, PAYMENTS_TABLE } from './tables/index.js';
import { TextFileWriter } from './text-file-writer.js';
import { toolInfo } from './tool-info.js';
import { XlsxTableSheets, type SheetResult } from './xlsx-table-sheets.js';
import { StreamingWorkbook } from './xlsx-workbook.js';
import { sumXlsxStats, xlsxNotes } from './xlsx-render-notes.js';
import { drawLaidOut } from './laid-out-sheets.js';
import { ZonedClock } from '../model/zoned-time.js';

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
  /** what the journal posted to its fee accounts (ReportTables.journalFees), for the Overview */
  private journalFeeExpense: JournalFees | null = null;
  private readonly startedAt: Date;
  private readonly wallClock: () => Date;
  private current: { abort(): Promise<void> } | null = null;
  private readonly extras = new Map<string, { abort(): Promise<void>; result: ManifestFile | null }>();
  /** CSV files written ahead of their tables' sheets (csvAhead), by table id */
  private readonly ahead = new Map<string, AheadPart>();
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
          printTitle: `${options.entity ?? `organization ${options.scope.organization}`} · ${options.job} ${options.period}`,
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
    const part: AheadPart = { abort: async (): Promise<void> => writer?.abort(), closed: null };
    this.ahead.set(spec.id, part);
    return csvAheadHandle(spec.id, writer, part, csvPath);
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

  journalFees(fees: JournalFees): void {
    this.journalFeeExpense = fees;
  }

  extraCsv<Row>(spec: TableSpec<Row>): TableHandle<Row> {
    const extra = this.openExtra(spec.file);
    const writer = CsvTableWriter.open(compileTable(spec, this.ctx), join(this.tempDir, spec.file), this.csvOptions);
    extra.abort = () => writer.abort();
    return extraCsvHandle(writer, (result) => {
      extra.result = { path: spec.file, ...result };
    });
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
    // the sheet shows the printed columns first (render-cells.ts sheetOrder); the CSV keeps the spec's order
    const sheetTable = spec.printColumns === undefined ? compiled : compileTable(spec, this.ctx, 'sheet');
    this.xlsxStats.push(compiled.xlsxStats);
    if (sheetTable !== compiled) this.xlsxStats.push(sheetTable.xlsxStats);
    const csvPath = join(this.tempDir, spec.file);
    const ahead = this.ahead.get(spec.id);
    if (ahead !== undefined && ahead.closed === null) throw new Error(`table ${spec.id}'s CSV written ahead is still open`);
    const csv = this.formats.has('csv') && ahead === undefined ? CsvTableWriter.open(compiled, csvPath, this.csvOptions) : null;
    const sheets = this.workbook === null || layout !== undefined ? null : new XlsxTableSheets(this.workbook, sheetTable, this.options.maxRowsPerSheet ?? EXCEL_MAX_ROWS);
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
    const workbook = this.workbook;
    // a table's print view (print-view.ts): its rows spooled beside the CSV, drawn after its sheet
    const view = sheets !== null && csv !== null && workbook !== null && spec.printView !== undefined ? new PrintViewSpool(compiled, spec.printView, join(this.tempDir, `.${spec.id}.print-view`)) : null;
    const observeAll = view === null ? observe : (row: Row) => {
      observe?.(row);
      view.add(row);
    };
    const { handle, abort } = tableHandle<Row>({
      id: spec.id,
      csvPath,
      csv,
      sheets,
      ahead,
      observe: observeAll,
      after: view === null || workbook === null ? null : () => view.draw(workbook),
      layout: layout !== undefined && workbook !== null ? () => (typeof layout === 'function' ? layout(workbook) : drawLaidOut(workbook, layout)) : null,
      done: (outcome) => {
        this.outcomes.push({ spec: spec as AnyTableSpec, ...outcome });
        this.current = null;
      },
    });
    this.current = { abort };
    return handle;
  }

  async publish(input: PublishInput): Promise<PublishResult> {
    this.assertPublishable();
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
      const stats = sumXlsxStats(this.xlsxStats, this.workbook !== null);
      const close = input.close ?? closeStatus({ closing: false, allowOpen: false, closedBefore: false, openItems: this.outcomes.find((o) => o.spec.id === OPEN_ITEMS_TABLE.id)?.rows ?? 0, period: this.options.period });
      const notes = [...(input.notes ?? []), ...xlsxNotes(stats)];
      if (this.workbook !== null) files.push(await this.commitWorkbook(this.workbook, input, { parameters, ordered, close, notes }));
      const html = renderFeesHtml(this.fees, { title: `Fees by wallet and rail · ${this.options.job} ${this.options.period}`, subtitle: `Window ${this.ctx.clock.iso(this.options.window.from) ?? ''} to ${this.ctx.clock.iso(this.options.window.to) ?? ''} (${this.options.window.tz}), completed payments.` }, this.ctx);
      files.push(await this.writeSmallFile(FEES_HTML_FILE, html, this.fees.groups().reduce((n, g) => n + g.bars.length, 0)));

      const counts: Record<string, number> = { ...(input.counts ?? {}) };
      for (const o of ordered) counts[o.spec.id] = o.rows;
      const manifestFor = (target: PublishTarget) =>
        publishedManifest(
          {
            options: this.options,
            startedAt: this.startedAt,
            wallClock: this.wallClock,
            parameters,
            csv: this.formats.has('csv') ? this.csvOptions : null,
            xlsx: this.workbook === null ? null : stats,
            counts,
            close,
            controlTotals: input.controlTotals,
            checks: input.checks,
            files,
          },
          target,
        );
      const published = await publishPeriod({
        tempDir: this.tempDir,
        jobDir: this.jobDir,
        period: this.options.period,
        scope: this.options.scope,
        closedBySnapshot: this.options.closed === true,
        runId: this.options.runId,
        files,
        // Extra files are derived from the tables (an amended journal holds only what was not yet
        // exported): the tables and the workbook decide whether anything changed. The pull's
        // evidence tells this run's requests, not the books: a re-run makes others, and a rebuild
        // (report) none — a folder that has it never differs by it.
        compared: (path) => !this.extras.has(path) && path !== EVIDENCE_FILE,
        manifestFor,
        writeManifest: async (text) => {
          await this.writeSmallFile(MANIFEST_FILE, text, 0);
        },
        signer: this.options.signer ?? null,
      });
      this.state = 'done';
      return published;
    } catch (error) {
      await this.abort();
      throw outputError(error, this.tempDir);
    }
  }

  /** A folder publishes once, with every table and file closed (a caller's bug otherwise, not the user's). */
  private assertPublishable(): void {
    if (this.state !== 'open') throw new Error('the report folder is already published or aborted');
    if (this.current !== null) throw new Error('a table is still open: close it before publishing');
    const unclosed = [...this.extras].find(([, e]) => e.result === null);
    if (unclosed !== undefined) throw new Error(`file ${unclosed[0]} is still open: close it before publishing`);
    const unfinished = [...this.ahead].find(([id, part]) => part.closed === null || !this.outcomes.some((o) => o.spec.id === id));
    if (unfinished !== undefined) throw new Error(`table ${unfinished[0]}'s CSV was written ahead but the table was not written: call table() for it before publishing`);
  }

  /** The Overview pages written last (they sum what the tables held), then the workbook committed: its manifest entry. */
  private async commitWorkbook(workbook: NonNullable<typeof this.workbook>, input: PublishInput, p: { parameters: Record<string, unknown>; ordered: readonly TableOutcome[]; close: CloseStatus; notes: string[] }): Promise<ManifestFile> {
    await writeOverviewPages(workbook, {
      options: this.options,
      ctx: this.ctx,
      parameters: p.parameters,
      checks: input.checks,
      controlTotals: input.controlTotals,
      specs: this.outcomes.map((o) => o.spec),
      tables: p.ordered.map((o) => ({ sheet: o.spec.sheet, file: o.csv === null ? null : o.spec.file, rows: o.rows })),
      fees: this.fees,
      chartData: this.chartData,
      balances: this.balances,
      close: p.close,
      notes: p.notes,
      ...(input.crypto === undefined ? {} : { crypto: input.crypto }),
      ...(this.journalFeeExpense === null ? {} : { journalFees: this.journalFeeExpense }),
    });
    const book = await workbook.commit();
    // the workbook's tab order: the order the tables were written (the journal's sheet sits before Exceptions)
    const sheets = this.outcomes.flatMap((o) => o.sheets);
    // its rows: the data rows of its table sheets (subtotal rows included; a laid-out sheet is not a table sheet)
    return { path: WORKBOOK_FILE, rows: sheets.reduce((n, s) => n + s.rows - 1, 0), bytes: book.bytes, sha256: book.sha256, sheets };
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

  private async writeSmallFile(name: string, content: string, rows: number): Promise<ManifestFile> {
    const bytes = Buffer.from(content, 'utf8');
    await writeFile(join(this.tempDir, name), bytes, { mode: FILE_MODE, flag: 'wx', flush: true });
    return { path: name, rows, bytes: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') };
  }

}

