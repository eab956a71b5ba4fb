import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CsvTableWriter, type CsvOptions } from '../../../src/sinks/csv-table-writer.js';
import { text, type TableSpec } from '../../../src/model/column-spec.js';
import { compileTable } from '../../../src/sinks/render-cells.js';
import { ZonedClock } from '../../../src/model/zoned-time.js';

/** Two free-text columns, so quoting is seen in the middle and at the end of a record. */
const MEMOS: TableSpec<[string, string]> = {
  id: 'memos',
  file: 'memos.csv',
  sheet: 'Memos',
  rowIs: 'memo',
  columns: [text('a', 'first', (r) => r[0]), text('b', 'second', (r) => r[1])],
};
const ctx = { clock: new ZonedClock('UTC'), assetDecimals: new Map<string, number>(), assetNames: new Map<string, string>(), asOf: '2026-11-01T00:00:00.000000Z' };

let root: string;
let n = 0;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'payexport-csv-writer-'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

async function written(rows: [string, string][], options: CsvOptions): Promise<string> {
  const path = join(root, `${++n}.csv`);
  const writer = CsvTableWriter.open(compileTable(MEMOS, ctx), path, options);
  for (const row of rows) await writer.write(row);
  await writer.close();
  return readFile(path, 'utf8');
}

describe('CSV writer: one quoting rule for every field', () => {
  const rows: [string, string][] = [
    ['line one\nline two', 'plain'],
    ['carriage\rreturn', 'windows\r\nbreak'],
    ['a,b', 'say "hi"'],
    ['ünïcödé 💸', ''],
  ];

  it('quotes a field holding a bare LF, a bare CR, CRLF, a comma or a quote, with CRLF records', async () => {
    expect(await written(rows, { bom: false, eol: 'crlf' })).toBe('a,b\r\n"line one\nline two",plain\r\n"carriage\rreturn","windows\r\nbreak"\r\n"a,b","say ""hi"""\r\nünïcödé 💸,\r\n');
  });

  it('quotes the same fields with LF records, and the BOM comes first', async () => {
    expect(await written(rows, { bom: true, eol: 'lf' })).toBe('\uFEFFa,b\n"line one\nline two",plain\n"carriage\rreturn","windows\r\nbreak"\n"a,b","say ""hi"""\nünïcödé 💸,\n');
  });

  it('quotes a line break after the formula apostrophe (a payload that starts with CR or LF)', async () => {
    expect(await written([['\r=1+1', '\n=HYPERLINK(A1)']], { bom: false, eol: 'crlf' })).toBe(`a,b\r\n"'\r=1+1","'\n=HYPERLINK(A1)"\r\n`);
  });
});
