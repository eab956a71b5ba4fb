import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { stringify, type Options } from 'csv-stringify';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CsvRecords } from '../../../src/sinks/csv-records.js';
import { csvFormat, type CsvOptions } from '../../../src/sinks/csv-table-writer.js';

/** Every byte a stream of records becomes. */
async function bytes(records: readonly string[][], stage: NodeJS.ReadWriteStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  await pipeline(Readable.from(records, { objectMode: true }), stage, async (source: AsyncIterable<Buffer | string>) => {
    for await (const chunk of source) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
  });
  return Buffer.concat(chunks);
}

const ours = (records: readonly string[][], options: CsvOptions, chunkBytes = 64 * 1024): Promise<Buffer> =>
  bytes(records, new CsvRecords({ format: csvFormat(options), chunkBytes }));
const theirs = (records: readonly string[][], options: CsvOptions): Promise<Buffer> => bytes(records, stringify(csvFormat(options)));

const FORMATS: CsvOptions[] = [
  { bom: true, eol: 'crlf' },
  { bom: false, eol: 'lf' },
  { bom: true, eol: 'lf' },
  { bom: false, eol: 'crlf' },
];

/** text made mostly of the characters that decide quoting, and some that do not */
const field = fc.oneof(
  fc.stringMatching(/^[a-z0-9.:-]{0,12}$/),
  fc.string({ unit: fc.constantFrom(',', '"', '\r', '\n', 'a', ' ', 'é', '\u{1f600}', '='), maxLength: 8 }),
  fc.string({ unit: 'grapheme', maxLength: 6 }),
  fc.constant(''),
);

describe('CSV records: the bytes csv-stringify writes, with fewer objects', () => {
  it('writes the same bytes as csv-stringify for any records of text, in every format and chunk size', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(field, { minLength: 1, maxLength: 6 }), { minLength: 1, maxLength: 20 }),
        fc.constantFrom(...FORMATS),
        fc.constantFrom(1, 7, 64 * 1024),
        async (records, format, chunkBytes) => {
          expect((await ours(records, format, chunkBytes)).equals(await theirs(records, format))).toBe(true);
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('joins a record no field of which needs quotes, and quotes the fields that do as csv-stringify does', () => {
    const stage = new CsvRecords({ format: csvFormat({ bom: false, eol: 'crlf' }), chunkBytes: 1024 });
    expect(stage.recordText(['a', '', 'b c'])).toBe('a,,b c\r\n');
    expect(stage.recordText(['a,b', 'c'])).toBe('"a,b",c\r\n');
    expect(stage.recordText(['say "hi"'])).toBe('"say ""hi"""\r\n');
    expect(stage.recordText(['ends in CR\r'])).toBe('"ends in CR\r"\r\n');
    expect(stage.recordText(['two\nlines', 'x'])).toBe('"two\nlines",x\r\n');
  });

  it('writes the BOM once, before the first record, and alone for a stream of no records (as csv-stringify does)', async () => {
    expect((await ours([['h'], ['1']], { bom: true, eol: 'crlf' })).toString('latin1')).toBe('\xef\xbb\xbfh\r\n1\r\n');
    expect((await ours([], { bom: true, eol: 'crlf' })).equals(await theirs([], { bom: true, eol: 'crlf' }))).toBe(true);
    expect((await ours([], { bom: false, eol: 'crlf' })).length).toBe(0);
  });

  it('refuses a format whose rule it does not write', () => {
    const quoted: Options = { ...csvFormat({ bom: false, eol: 'crlf' }), quoted: true };
    expect(() => new CsvRecords({ format: quoted, chunkBytes: 1024 })).toThrow(/not csvFormat's/);
    const formulas: Options = { ...csvFormat({ bom: false, eol: 'crlf' }), escape_formulas: true };
    expect(() => new CsvRecords({ format: formulas, chunkBytes: 1024 })).toThrow(/not csvFormat's/);
  });
});
