/**
 * The CSV stage of a table file: records of text in, the bytes csv-stringify writes for them out,
 * in chunks of about `chunkBytes`.
 *
 * csv-stringify (6.x) builds, for every field, a cast context object, two two-element arrays and an
 * array of separators, and flattens a record string built by `+=`: much of everything an export allocated.
 * Under `csvFormat` (no quoting options, no formula escaping: cells.ts neutralizes formulas before
 * here) csv-stringify's rule is RFC 4180's: a field holding `,`, `"`, CR or LF is enclosed in quotes
 * with its quotes doubled, any other field is written as it is. Here that rule is one function:
 * a record none of whose fields needs quotes (most: amounts, dates, ids) is its fields joined by
 * commas, checked on the joined line; any other record is built field by field. csv-stringify
 * stays the reference: `test/unit/sinks/csv-records.test.ts` holds both paths to its bytes on any
 * text, every format and chunk size, and the constructor refuses a format this rule does not cover.
 */
import { Transform, type TransformCallback } from 'node:stream';
import type { Options } from 'csv-stringify';
import { utf8Join } from '../util/utf8-text.js';

const BOM = '\ufeff';
/** a quote, CR or LF anywhere in the joined record: some field needs quotes */
const QUOTE_OR_BREAK = /["\r\n]/;
/** a field csv-stringify encloses in quotes under csvFormat */
const FIELD_NEEDS_QUOTES = /[,"\r\n]/;

export interface CsvRecordsOptions {
  /** csv-stringify's options for every record (csvFormat's: `,` `"` delimiters, eof) */
  readonly format: Options;
  readonly chunkBytes: number;
}

export class CsvRecords extends Transform {
  private readonly delimiter: string;
  private readonly chunkChars: number;
  /**
   * records not yet pushed, and their length in UTF-16 units; csv-stringify writes the BOM even for
   * a stream of no records. Kept as a list and written record by record into the chunk
   * (util/utf8-text.ts): a chunk built by `+=` was a long rope V8 flattened to encode it.
   */
  private pending: string[];
  private pendingChars: number;

  constructor(options: CsvRecordsOptions) {
    super({ writableObjectMode: true, writableHighWaterMark: 256, readableHighWaterMark: options.chunkBytes });
    const { bom, ...format } = options.format;
    if (format.quote_record_delimiter !== true || format.delimiter !== ',' || format.quote !== '"' || format.escape !== '"' || format.eof !== true || format.quoted || format.quoted_match !== undefined || format.escape_formulas || format.cast !== undefined) {
      // this rule is csvFormat's; another format would need csv-stringify's own options honoured
      throw new Error('csv-records: the format is not csvFormat\'s, the one this encoder writes');
    }
    this.delimiter = format.record_delimiter === 'windows' ? '\r\n' : format.record_delimiter === 'unix' ? '\n' : 'unknown';
    if (this.delimiter === 'unknown') throw new Error('csv-records: record_delimiter is windows or unix');
    // a chunk is flushed at this many UTF-16 units: at least as many bytes, so a chunk fills the buffer
    this.chunkChars = options.chunkBytes;
    this.pending = bom === true ? [BOM] : [];
    this.pendingChars = bom === true ? BOM.length : 0;
  }

  /** The record's text with its delimiter, as csv-stringify writes it. */
  recordText(fields: readonly string[]): string {
    const line = fields.join(',');
    // no quote or line break, and no comma but the ones the join put there: no field needs quotes
    if (!QUOTE_OR_BREAK.test(line) && commas(line) === fields.length - 1) return line + this.delimiter;
    let text = '';
    for (let i = 0; i < fields.length; i++) {
      const field = fields[i] as string;
      if (i > 0) text += ',';
      text += FIELD_NEEDS_QUOTES.test(field) ? `"${field.replaceAll('"', '""')}"` : field;
    }
    return text + this.delimiter;
  }

  override _transform(fields: readonly string[], _encoding: BufferEncoding, callback: TransformCallback): void {
    try {
      const text = this.recordText(fields);
      this.pending.push(text);
      this.pendingChars += text.length;
    } catch (error) {
      callback(error as Error);
      return;
    }
    if (this.pendingChars >= this.chunkChars) this.pushPending();
    callback();
  }

  override _flush(callback: TransformCallback): void {
    if (this.pending.length > 0) this.pushPending();
    callback();
  }

  private pushPending(): void {
    const chunk = utf8Join(this.pending);
    this.pending = [];
    this.pendingChars = 0;
    this.push(chunk);
  }
}

function commas(line: string): number {
  let count = 0;
  for (let at = line.indexOf(','); at !== -1; at = line.indexOf(',', at + 1)) count += 1;
  return count;
}
