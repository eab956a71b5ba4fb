/**
 * The CSV stage of a table file: records of text in, the bytes csv-stringify writes for them out,
 * in chunks of about `chunkBytes`.
 *
 * csv-stringify (6.x) builds, for every field, a cast context object, two two-element arrays and an
 * array of separators, and flattens a record string built by `+=`: ~18 KB of garbage per payment,
 * a third of everything an export allocated (issue 41's allocation profile, docs/benchmarks.md).
 * Almost no record of ours needs a quote — amounts, dates, ids and statuses never hold one — so a
 * record whose fields hold no `,`, `"`, CR or LF is written as its fields joined by commas, which
 * is what csv-stringify writes for it under `csvFormat` (no quoting options, no formula escaping:
 * cells.ts neutralizes formulas before here). Any other record goes through csv-stringify itself.
 * `test/unit/sinks/csv-records.test.ts` holds both paths to csv-stringify's bytes, on any text.
 */
import { Transform, type TransformCallback } from 'node:stream';
import { stringify, type Options } from 'csv-stringify/sync';

const BOM = '\ufeff';
/** a quote, CR or LF anywhere in the joined record sends it to csv-stringify */
const NEEDS_QUOTING = /["\r\n]/;

export interface CsvRecordsOptions {
  /** csv-stringify's options for every record (csvFormat's: `,` `"` delimiters, eof) */
  readonly format: Options;
  readonly chunkBytes: number;
}

export class CsvRecords extends Transform {
  private readonly delimiter: string;
  private readonly slowFormat: Options;
  private readonly chunkChars: number;
  /** text not yet pushed; csv-stringify writes the BOM even for a stream of no records */
  private pending: string;

  constructor(options: CsvRecordsOptions) {
    super({ writableObjectMode: true, writableHighWaterMark: 256, readableHighWaterMark: options.chunkBytes });
    const { bom, ...format } = options.format;
    if (format.delimiter !== ',' || format.quote !== '"' || format.escape !== '"' || format.eof !== true || format.quoted || format.quoted_match !== undefined || format.escape_formulas || format.cast !== undefined) {
      // the fast path knows only csvFormat's rule; any other format is csv-stringify's alone
      throw new Error('csv-records: the format is not the one the fast path writes');
    }
    this.delimiter = format.record_delimiter === 'windows' ? '\r\n' : format.record_delimiter === 'unix' ? '\n' : 'unknown';
    if (this.delimiter === 'unknown') throw new Error('csv-records: record_delimiter is windows or unix');
    this.slowFormat = format;
    // a chunk is flushed at this many UTF-16 units: at least as many bytes, so a chunk fills the buffer
    this.chunkChars = options.chunkBytes;
    this.pending = bom === true ? BOM : '';
  }

  /** The record's text with its delimiter, as csv-stringify writes it. */
  recordText(fields: readonly string[]): string {
    const line = fields.join(',');
    if (!NEEDS_QUOTING.test(line) && commas(line) === fields.length - 1) return line + this.delimiter;
    return stringify([fields as string[]], this.slowFormat);
  }

  override _transform(fields: readonly string[], _encoding: BufferEncoding, callback: TransformCallback): void {
    try {
      this.pending += this.recordText(fields);
    } catch (error) {
      callback(error as Error);
      return;
    }
    if (this.pending.length >= this.chunkChars) {
      const chunk = this.pending;
      this.pending = '';
      this.push(Buffer.from(chunk, 'utf8'));
    }
    callback();
  }

  override _flush(callback: TransformCallback): void {
    if (this.pending.length > 0) this.push(Buffer.from(this.pending, 'utf8'));
    this.pending = '';
    callback();
  }
}

function commas(line: string): number {
  let count = 0;
  for (let at = line.indexOf(','); at !== -1; at = line.indexOf(',', at + 1)) count += 1;
  return count;
}
