/**
 * One streaming CSV file: records as arrays of text → csv-records.ts (the bytes csv-stringify
 * writes under `csvFormat`, with a fraction of its garbage; tests hold it to csv-stringify's
 * output) → sha256/byte tap → a 0640 file flushed to disk on close. RFC 4180
 * quoting (`csvFormat`), UTF-8, a BOM and CRLF by default (see `CsvOptions`). `write` honours
 * backpressure: it returns a promise only
 * when the encoder's buffer is full, and that promise settles on 'drain' — or rejects as soon
 * as the file fails (ENOSPC), so a writer never waits on a dead pipe.
 */
import { basename } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Options } from 'csv-stringify';
import { CsvRecords } from './csv-records.js';
import type { CompiledTable } from './render-cells.js';
import { createOutputStream, HashTap, outputError } from './output-file.js';
import { FAULTS_ARMED, faultPoint } from '../util/fault-points.js';

export interface CsvOptions {
  /**
   * Prefix a UTF-8 byte-order mark. Default true: Excel on Windows reads a BOM-less CSV in the
   * ANSI code page and garbles every non-ASCII memo; csv-parse (`bom: true`), pandas
   * (`utf-8-sig`), LibreOffice and Google Sheets all accept it (docs/reliability.md#spreadsheet-fidelity).
   */
  readonly bom: boolean;
  /** Record delimiter. Default CRLF, as RFC 4180 §2.1 specifies; `lf` for Unix pipelines. */
  readonly eol: 'crlf' | 'lf';
}

/**
 * Buffer per stage (stringifier output, hash tap, file). With Node's 16 KB default the writer
 * spent much of its time idle, waiting on a disk-write round trip every few rows; 64 KB removes
 * most of that, while a larger buffer bought no speed and cost memory in garbage between collections.
 */
const BUFFER_BYTES = 64 * 1024;

export const DEFAULT_CSV_OPTIONS: CsvOptions = { bom: true, eol: 'crlf' };

/**
 * The one quoting rule of every CSV we write (RFC 4180 §2.6–2.7): a field that holds the delimiter
 * `,`, the quote `"`, a CR or an LF — anywhere, with either `eol` — is enclosed in quotes, its
 * quotes doubled; no other field is. csv-stringify by itself quotes only fields holding the
 * *record delimiter* once one is set, so under CRLF a bare LF or CR went out unquoted and Excel,
 * LibreOffice, pandas and Python's csv split the record there. `quote_record_delimiter` makes it
 * quote a field holding any of CRLF, LF or CR: two `indexOf` per field, within the noise of a
 * local measurement (100k payments); `quoted_match: /[\r\n]/` was up to a quarter slower.
 */
export function csvFormat(options: CsvOptions): Options {
  return { bom: options.bom, record_delimiter: options.eol === 'crlf' ? 'windows' : 'unix', quote_record_delimiter: true, delimiter: ',', quote: '"', escape: '"', eof: true };
}

export interface FileResult {
  /** data rows, header excluded */
  rows: number;
  bytes: number;
  sha256: string;
}

export class CsvTableWriter<Row> {
  private rows = 0;
  private closed = false;
  private readonly done: Promise<void>;
  private failure: unknown = undefined;
  private readonly file: string;

  private constructor(
    private readonly table: CompiledTable<Row>,
    private readonly path: string,
    private readonly stringifier: CsvRecords,
    private readonly tap: HashTap,
  ) {
    this.file = basename(path);
    this.done = pipeline(stringifier, tap, createOutputStream(path, BUFFER_BYTES)).catch((error: unknown) => {
      this.failure = outputError(error, path);
      throw this.failure;
    });
    // a failure is reported by write/close; keep it from surfacing as an unhandled rejection
    this.done.catch(() => undefined);
  }

  static open<Row>(table: CompiledTable<Row>, path: string, options: CsvOptions): CsvTableWriter<Row> {
    const stringifier = new CsvRecords({ format: csvFormat(options), chunkBytes: BUFFER_BYTES });
    const writer = new CsvTableWriter(table, path, stringifier, new HashTap({ highWaterMark: BUFFER_BYTES }));
    stringifier.write([...table.headers]);
    return writer;
  }

  /** Writes one row; the returned promise (only when the buffer is full) resolves on drain. */
  write(row: Row): Promise<void> | undefined {
    if (this.failure !== undefined) return Promise.reject(this.failure);
    if (this.closed) return Promise.reject(new Error(`CSV ${this.path} is closed`));
    this.rows += 1;
    if (FAULTS_ARMED) faultPoint('report:csv', { rows: this.rows, file: this.file });
    if (this.stringifier.write(this.table.csvRow(row))) return undefined;
    return this.drained();
  }

  /** Settles on 'drain', or with the pipeline's failure if the stream dies first (no listener is left behind). */
  private drained(): Promise<void> {
    const s = this.stringifier;
    return new Promise<void>((resolve, reject) => {
      const onDrain = (): void => {
        s.off('close', onClose);
        resolve();
      };
      const onClose = (): void => {
        s.off('drain', onDrain);
        this.done.then(() => reject(new Error(`CSV ${this.path} closed while writing`)), reject);
      };
      s.once('drain', onDrain);
      s.once('close', onClose);
    });
  }

  async close(): Promise<FileResult> {
    if (this.closed) throw new Error(`CSV ${this.path} is already closed`);
    this.closed = true;
    this.stringifier.end();
    await this.done;
    return { rows: this.rows, bytes: this.tap.bytes, sha256: this.tap.digest() };
  }

  /** Stops writing; the caller removes the folder. Never throws. */
  async abort(): Promise<void> {
    this.closed = true;
    this.stringifier.destroy();
    await this.done.catch(() => undefined);
  }
}
