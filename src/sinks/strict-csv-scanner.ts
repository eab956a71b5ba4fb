/**
 * A strict RFC 4180 reader for `payexport verify`: it counts records and fields the way Excel,
 * LibreOffice, pandas and Python's csv module split a file, and reports where a file would be
 * split differently than its writer meant. It is deliberately not csv-parse: csv-parse, having seen
 * CRLF records, accepts a bare LF inside an unquoted field, which every spreadsheet reads as a new
 * record — the very defect a check must catch.
 *
 * The rules (RFC 4180 §2): fields are separated by `,`; a field holding `,`, `"`, CR or LF is
 * enclosed in `"` and its quotes are doubled; outside quotes a record ends with the file's record
 * delimiter — CRLF, or LF for files written with `eol: lf` — and nothing else: a bare CR or LF
 * outside quotes is an error (it is where other readers start a new record), and so is a quote in
 * an unquoted field or text after a closing quote. A leading UTF-8 byte-order mark is skipped; the
 * last record may lack its delimiter.
 *
 * It is a byte state machine fed chunk by chunk: every character it looks at is ASCII, which never
 * occurs inside a multi-byte UTF-8 sequence, so it needs no decoding, and it keeps no field text —
 * memory stays constant whatever the file's size.
 */
import { createReadStream } from 'node:fs';

export interface CsvScanOptions {
  /** the record delimiter the file was written with (manifest.json `csv.eol`) */
  readonly eol: 'crlf' | 'lf';
  /** issues kept for the report; later ones are only counted (default 20) */
  readonly maxIssues?: number;
}

export interface CsvScanIssue {
  /** 1-based physical line (LF-separated) where the problem is */
  line: number;
  /** 1-based record number as a reader splitting at every line break counts it; the header is record 1 */
  record: number;
  message: string;
}

export interface CsvScanResult {
  /** data records, header excluded */
  records: number;
  /** fields of the header record */
  headerFields: number;
  /** the first `maxIssues` issues */
  issues: CsvScanIssue[];
  /** every issue, including those not kept */
  issueCount: number;
}

const COMMA = 0x2c;
const QUOTE = 0x22;
const CR = 0x0d;
const LF = 0x0a;
const BOM = [0xef, 0xbb, 0xbf] as const;

const enum State {
  /** at the start of a field (also of a record) */
  FieldStart,
  /** inside an unquoted field */
  Unquoted,
  /** inside a quoted field */
  Quoted,
  /** a quote inside a quoted field: the closing quote, or the first of a doubled pair */
  QuoteInQuoted,
  /** a CR outside quotes, in a CRLF file: must be followed by LF */
  AfterCr,
}

export class StrictCsvScanner {
  private state = State.FieldStart;
  private bomChecked = 0;
  /** physical line (LF count + 1) */
  private line = 1;
  /** records ended so far (header included) */
  private ended = 0;
  /** fields ended in the current record */
  private fields = 0;
  /** whether the current record has any byte yet */
  private started = false;
  private recordLine = 1;
  private quoteLine = 1;
  private headerFields = -1;
  private readonly issues: CsvScanIssue[] = [];
  private issueCount = 0;
  private readonly crlf: boolean;
  private readonly maxIssues: number;

  constructor(options: CsvScanOptions) {
    this.crlf = options.eol === 'crlf';
    this.maxIssues = options.maxIssues ?? 20;
  }

  push(chunk: Uint8Array): void {
    let i = 0;
    // a leading byte-order mark, possibly split across chunks
    while (this.bomChecked < BOM.length && i < chunk.length) {
      if (chunk[i] !== BOM[this.bomChecked]) {
        if (this.bomChecked > 0) this.issue(this.line, 'a broken byte-order mark at the start of the file');
        this.bomChecked = BOM.length;
        break;
      }
      this.bomChecked += 1;
      i += 1;
    }
    const n = chunk.length;
    for (; i < n; i++) {
      const c = chunk[i] as number;
      switch (this.state) {
        case State.FieldStart:
          this.started = true;
          if (c === QUOTE) {
            this.state = State.Quoted;
            this.quoteLine = this.line;
          } else if (c === COMMA) this.fields += 1;
          else if (c === CR || c === LF) this.lineBreak(c);
          else this.state = State.Unquoted;
          break;
        case State.Unquoted:
          if (c === COMMA) {
            this.fields += 1;
            this.state = State.FieldStart;
          } else if (c === CR || c === LF) this.lineBreak(c);
          else if (c === QUOTE) this.issue(this.line, 'a quote inside an unquoted field');
          break;
        case State.Quoted:
          if (c === QUOTE) this.state = State.QuoteInQuoted;
          else if (c === LF) this.line += 1;
          break;
        case State.QuoteInQuoted:
          if (c === QUOTE) this.state = State.Quoted;
          else if (c === COMMA) {
            this.fields += 1;
            this.state = State.FieldStart;
          } else if (c === CR || c === LF) this.lineBreak(c);
          else {
            this.issue(this.line, 'text after the closing quote of a field');
            this.state = State.Unquoted;
          }
          break;
        case State.AfterCr:
          if (c === LF) {
            this.line += 1;
            this.endRecord();
          } else {
            this.issue(this.line, 'a bare CR outside quotes (records end with CRLF)');
            // other readers end the record at the CR: so does the count
            this.endRecord();
            this.state = State.FieldStart;
            i -= 1;
          }
          break;
      }
    }
  }

  /** Ends the scan: the counts and the issues. */
  finish(): CsvScanResult {
    if (this.state === State.Quoted) {
      this.issue(this.quoteLine, 'a quoted field is never closed');
    } else if (this.state === State.AfterCr) {
      this.issue(this.line, 'a bare CR outside quotes (records end with CRLF)');
      this.endRecord();
    } else if (this.started) {
      // the last record without its delimiter: RFC 4180 allows it
      this.endRecord();
    }
    return { records: Math.max(0, this.ended - 1), headerFields: Math.max(0, this.headerFields), issues: this.issues, issueCount: this.issueCount };
  }

  /** A CR or LF outside quotes. */
  private lineBreak(c: number): void {
    if (c === CR) {
      if (this.crlf) {
        this.state = State.AfterCr;
        return;
      }
      this.issue(this.line, 'a bare CR outside quotes (records end with LF)');
      this.endRecord();
      return;
    }
    // LF
    if (this.crlf) this.issue(this.line, 'a bare LF outside quotes (records end with CRLF)');
    this.line += 1;
    this.endRecord();
  }

  private endRecord(): void {
    const fields = this.fields + 1;
    this.ended += 1;
    if (this.headerFields < 0) this.headerFields = fields;
    else if (fields !== this.headerFields) this.issue(this.recordLine, `${fields} field(s) where the header has ${this.headerFields}`, this.ended);
    this.fields = 0;
    this.started = false;
    this.state = State.FieldStart;
    this.recordLine = this.line;
  }

  private issue(line: number, message: string, record = this.ended + 1): void {
    this.issueCount += 1;
    if (this.issues.length < this.maxIssues) this.issues.push({ line, record, message });
  }
}

/** Scans a file on disk, streaming. */
export async function scanCsvFile(path: string, options: CsvScanOptions): Promise<CsvScanResult> {
  const scanner = new StrictCsvScanner(options);
  for await (const chunk of createReadStream(path, { highWaterMark: 256 * 1024 })) scanner.push(chunk as Buffer);
  return scanner.finish();
}
