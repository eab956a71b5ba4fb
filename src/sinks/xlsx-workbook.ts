/**
 * exceljs's streaming WorkbookWriter made deterministic, memory-flat and first-tab-last.
 *
 * Written through exceljs's internals (lib/stream/xlsx/*.js, archiver 5), reached only through
 * platform/exceljs-internals.ts, which fails loudly if an upgrade moves them.
 *
 * 1. Memory. Each worksheet writes XML into a StreamBuf that archiver-utils pipes into a
 *    PassThrough; StreamBuf ignores `write()`'s return value, so when JavaScript produces XML faster
 *    than zlib (on the libuv pool) compresses it, the PassThrough's buffer grows without bound
 *    (~0.9 GB per 1M rows, docs/measurements.md#xlsx-writing). Everything after the PassThrough is a proper
 *    pipe (PassThrough → deflate → zip → archiver → file), so bounding that one buffer bounds the
 *    whole chain: `pace()` waits for 'drain' whenever more than `maxBytesInFlight` bytes sit in
 *    it. Entries are zipped one after another, so a new sheet's XML also waits there until the
 *    previous sheet is compressed — the same bound covers it.
 * 2. Determinism. Zip entry dates default to `new Date()` and the workbook's core properties to
 *    now; both are fixed to `documentDate`. The archiver is created inside exceljs's constructor
 *    (and two entries are appended right there), so a `zip` accessor on the subclass intercepts
 *    the assignment and fixes every entry's date. DOS dates are written in UTC (forceLocalTime
 *    off), so the bytes do not depend on the machine's zone either.
 * 3. Tab order. The order of `<sheets>` in workbook.xml is the order of sheet ids, and a sheet's
 *    XML is zipped in the order sheets are created. The Overview must be the first tab but is
 *    known only at the end: exceljs would zip it first and hold every later sheet in memory until
 *    it is committed. Instead id 1 is reserved and handed out by `addFirstSheet()`, which is
 *    called last — first tab, last entry, nothing buffered.
 * 4. Charts. exceljs writes no charts; `addCharts()` adds the DrawingML parts (xlsx-chart-xml.ts)
 *    while the workbook streams: the chart and drawing parts are appended to the zip, the
 *    drawing is related through exceljs's own sheet-relationships writer, the sheet's
 *    `<drawing r:id>` is written just before its `<legacyDrawing>` (where the schema wants it:
 *    after the page setup and header/footer, before legacy drawings and table parts), and
 *    `[Content_Types].xml` gets an override per part as it is appended. The workbook is still
 *    written once, so its hash is the final file's and nothing is buffered or zipped twice.
 */
import { pipeline } from 'node:stream/promises';
import type { AddWorksheetOptions, Worksheet } from 'exceljs';
import { drawingInternals, sheetPipe, WorkbookWriter, type ZipArchive } from '../platform/exceljs-internals.js';
import { createOutputStream, HashTap, outputError } from './output-file.js';
import { CHART_CONTENT_TYPE, CHART_REL_TYPE, DRAWING_CONTENT_TYPE, DRAWING_REL_TYPE, drawingXml, relationshipsXml, type ChartAnchor } from './xlsx-chart-xml.js';
import type { FileResult } from './csv-table-writer.js';

/** Default bound on uncompressed XML waiting for the compressor, per workbook. */
export const DEFAULT_MAX_BYTES_IN_FLIGHT = 4 * 1024 * 1024;
const FIRST_SHEET_ID = 1;

const CONTENT_TYPES_PART = '[Content_Types].xml';

class DeterministicWorkbookWriter extends WorkbookWriter {
  declare private archive: ZipArchive;
  declare private forcedSheetId: number | undefined;
  declare private lastSheetId: number | undefined;
  /** `<Override>` elements for parts exceljs does not know (charts, drawings) */
  declare extraContentTypes: string[] | undefined;

  // exceljs assigns `this.zip` in its constructor; see file comments (2) and (4).
  set zip(archive: ZipArchive) {
    const append = archive.append.bind(archive);
    const date = this.modified;
    archive.append = (source, data) => {
      const overrides = this.extraContentTypes ?? [];
      if (data.name === CONTENT_TYPES_PART && typeof source === 'string' && overrides.length > 0) {
        if (!source.includes('</Types>')) throw new Error('exceljs internals changed: [Content_Types].xml has no </Types> (see xlsx-workbook.ts)');
        return append(source.replace('</Types>', `${overrides.join('')}</Types>`), { ...data, date });
      }
      return append(source, { ...data, date });
    };
    this.archive = archive;
  }

  get zip(): ZipArchive {
    return this.archive;
  }

  allocateSheetId(): number {
    if (this.forcedSheetId !== undefined) return this.forcedSheetId;
    this.lastSheetId = (this.lastSheetId ?? FIRST_SHEET_ID) + 1;
    return this.lastSheetId;
  }

  addWorksheetWithId(id: number, name: string, options: Partial<AddWorksheetOptions>): Worksheet {
    this.forcedSheetId = id;
    try {
      return this.addWorksheet(name, options);
    } finally {
      this.forcedSheetId = undefined;
    }
  }
}

// exceljs reads `nextId` once per addWorksheet (file comment (3)); its typings declare it a readonly
// property, so the getter is installed on the prototype rather than declared in the class body.
Object.defineProperty(DeterministicWorkbookWriter.prototype, 'nextId', {
  get(this: DeterministicWorkbookWriter): number {
    return this.allocateSheetId();
  },
});

/** Options exceljs 4.4.0 reads at runtime but its typings omit. */
type WriterOptions = ConstructorParameters<typeof WorkbookWriter>[0] & { created: Date; modified: Date; creator: string; lastModifiedBy: string };

export interface StreamingWorkbookOptions {
  path: string;
  /** written as the document's created/modified date and every zip entry's date */
  documentDate: Date;
  creator: string;
  maxBytesInFlight?: number;
  /**
   * what every printed page of every sheet names at its top left — the entity and the period — with
   * the sheet's name at the top right and "Page N of M" at the foot; a sheet
   * with a header or footer of its own keeps it (printedPages)
   */
  printTitle?: string;
}

/**
 * The header and footer of a printed sheet (docs/reports.md#printing-8-pt-or-more-on-a4-and-letter):
 * `title` left and the sheet's name (&A) right at the top, "Page &P of &N" at the foot right: the
 * page among all the pages printed together (LibreOffice counts &N over the whole workbook, so a
 * page number restarted per sheet would read "Page 1 of 1,712"). `&` is the codes' escape
 * character, so a title's own is doubled.
 */
export function printedPages(options: Partial<AddWorksheetOptions>, title: string | undefined): Partial<AddWorksheetOptions> {
  if (title === undefined) return options;
  const given = options.headerFooter ?? {};
  return {
    ...options,
    headerFooter: { ...given, oddHeader: given.oddHeader ?? `&L${title.replaceAll('&', '&&')}&R&A`, oddFooter: given.oddFooter ?? '&RPage &P of &N' },
  };
}

export class StreamingWorkbook {
  private readonly writer: DeterministicWorkbookWriter;
  // the zip's 4–16 KB writes passed on in runs of 256 KB (output-file.ts says why)
  private readonly tap = new HashTap({ batchBytes: 256 * 1024 });
  private readonly written: Promise<void>;
  private failure: unknown = undefined;
  private readonly failureListeners = new Set<(error: unknown) => void>();
  private readonly maxBytesInFlight: number;
  private firstSheetAdded = false;
  private committed = false;
  private drawings = 0;
  private charts = 0;

  private constructor(private readonly options: StreamingWorkbookOptions) {
    this.maxBytesInFlight = options.maxBytesInFlight ?? DEFAULT_MAX_BYTES_IN_FLIGHT;
    this.written = pipeline(this.tap, createOutputStream(options.path));
    this.written.catch((error: unknown) => this.fail(error));
    const writerOptions: WriterOptions = {
      stream: this.tap,
      useStyles: true,
      useSharedStrings: false,
      created: options.documentDate,
      modified: options.documentDate,
      creator: options.creator,
      lastModifiedBy: options.creator,
    };
    this.writer = new DeterministicWorkbookWriter(writerOptions);
    this.writer.zip.on('error', (error) => this.fail(error));
    this.writer.views = [{ x: 0, y: 0, width: 28800, height: 17000, firstSheet: 0, activeTab: 0, visibility: 'visible' }];
  }

  static open(options: StreamingWorkbookOptions): StreamingWorkbook {
    return new StreamingWorkbook(options);
  }

  private fail(error: unknown): void {
    if (this.failure !== undefined) return;
    this.failure = outputError(error, this.options.path);
    for (const listener of this.failureListeners) listener(this.failure);
    this.failureListeners.clear();
  }

  /** A sheet after the ones added so far (tab order = order of calls). */
  addSheet(name: string, options: Partial<AddWorksheetOptions>): Worksheet {
    this.assertOpen();
    const sheet = this.writer.addWorksheet(name, printedPages(options, this.options.printTitle));
    sheetPipe(sheet);
    return sheet;
  }

  /** The first tab, added last (file comment (3)). */
  addFirstSheet(name: string, options: Partial<AddWorksheetOptions>): Worksheet {
    this.assertOpen();
    if (this.firstSheetAdded) throw new Error('the first sheet is already added');
    this.firstSheetAdded = true;
    const sheet = this.writer.addWorksheetWithId(FIRST_SHEET_ID, name, printedPages(options, this.options.printTitle));
    sheetPipe(sheet);
    return sheet;
  }

  /**
   * Charts drawn on `sheet` (file comment (4)), each a chart part's XML at its anchor. Call before
   * the sheet is committed; the cells the charts read may be on any sheet of the workbook.
   */
  addCharts(sheet: Worksheet, charts: readonly { anchor: ChartAnchor; xml: string }[]): void {
    this.assertOpen();
    if (charts.length === 0) return;
    const internals = drawingInternals(sheet);
    const rels = internals._sheetRelsWriter;
    const writeLegacy = internals._writeLegacyData;
    const write = internals._write;
    const drawing = ++this.drawings;
    const numbers = charts.map(() => ++this.charts);
    const zip = this.writer.zip;
    charts.forEach((chart, k) => zip.append(chart.xml, { name: `xl/charts/chart${numbers[k]}.xml` }));
    zip.append(drawingXml(charts.map((c) => c.anchor)), { name: `xl/drawings/drawing${drawing}.xml` });
    zip.append(relationshipsXml(numbers.map((n) => ({ type: CHART_REL_TYPE, target: `../charts/chart${n}.xml` }))), { name: `xl/drawings/_rels/drawing${drawing}.xml.rels` });
    const rId = rels.addRelationship({ Target: `../drawings/drawing${drawing}.xml`, Type: DRAWING_REL_TYPE });
    internals._writeLegacyData = function (this: typeof internals): void {
      write.call(this, `<drawing r:id="${rId}"/>`);
      writeLegacy.call(this);
    };
    this.writer.extraContentTypes = [
      ...(this.writer.extraContentTypes ?? []),
      `<Override PartName="/xl/drawings/drawing${drawing}.xml" ContentType="${DRAWING_CONTENT_TYPE}"/>`,
      ...numbers.map((n) => `<Override PartName="/xl/charts/chart${n}.xml" ContentType="${CHART_CONTENT_TYPE}"/>`),
    ];
  }

  /**
   * Waits while more than `maxBytesInFlight` bytes of this sheet's XML wait for the compressor
   * (file comment (1)); rejects as soon as the workbook fails. Cheap enough to call per row.
   * A committed sheet has ended its pipe, and an ended stream never emits 'drain' (Node emits it
   * only while not ending): then the wait is for 'finish', when every byte has gone through.
   */
  pace(sheet: Worksheet): Promise<void> | undefined {
    if (this.failure !== undefined) return Promise.reject(this.failure);
    const buffer = sheetPipe(sheet);
    if ((buffer._writableState?.length ?? 0) <= this.maxBytesInFlight) return undefined;
    // archiver's PassThrough is readable-stream 2's: its state is read as it stores it
    if (buffer._writableState?.finished === true) return undefined;
    const event = buffer._writableState?.ending === true ? 'finish' : 'drain';
    return new Promise<void>((resolve, reject) => {
      const onDone = (): void => {
        this.failureListeners.delete(onFailure);
        resolve();
      };
      const onFailure = (error: unknown): void => {
        buffer.off(event, onDone);
        reject(error);
      };
      buffer.once(event, onDone);
      this.failureListeners.add(onFailure);
    });
  }

  /** Commits the sheet's remaining XML and waits until it fits the in-flight bound again. */
  async commitSheet(sheet: Worksheet): Promise<void> {
    sheet.commit();
    await this.pace(sheet);
  }

  async commit(): Promise<FileResult> {
    this.assertOpen();
    this.committed = true;
    const failed = new Promise<never>((_resolve, reject) => {
      if (this.failure !== undefined) reject(this.failure);
      else this.failureListeners.add(reject);
    });
    try {
      await Promise.race([this.writer.commit(), failed]);
      await Promise.race([this.written, failed]);
    } catch (error) {
      throw outputError(error, this.options.path);
    }
    return { rows: 0, bytes: this.tap.bytes, sha256: this.tap.digest() };
  }

  /** Stops writing; the caller removes the folder. Never throws. */
  async abort(): Promise<void> {
    this.committed = true;
    this.tap.destroy();
    await this.written.catch(() => undefined);
  }

  private assertOpen(): void {
    if (this.committed) throw new Error(`workbook ${this.options.path} is already committed`);
    if (this.failure !== undefined) throw this.failure;
  }
}
