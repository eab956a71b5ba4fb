import { describe, expect, it } from 'vitest';
import { StrictCsvScanner, type CsvScanOptions, type CsvScanResult } from '../../../src/sinks/strict-csv-scanner.js';

const CRLF: CsvScanOptions = { eol: 'crlf' };
const LF: CsvScanOptions = { eol: 'lf' };

/** Scans `text` fed in chunks of `size` bytes (1 = every state change crosses a chunk boundary). */
function scan(text: string | Buffer, options: CsvScanOptions, size = 1 << 16): CsvScanResult {
  const bytes = typeof text === 'string' ? Buffer.from(text, 'utf8') : text;
  const scanner = new StrictCsvScanner(options);
  for (let i = 0; i < bytes.length; i += size) scanner.push(bytes.subarray(i, i + size));
  return scanner.finish();
}

function messages(result: CsvScanResult): string[] {
  return result.issues.map((i) => `line ${i.line}, record ${i.record}: ${i.message}`);
}

describe('strict CSV scanner: well-formed files', () => {
  it.each([1, 2, 7, 1 << 16])('counts records of a CRLF file with quoted CR, LF, CRLF, commas and quotes (chunks of %i bytes)', (size) => {
    const text = '\uFEFFid,memo,amount\r\n1,"line one\nline two",5\r\n2,"a\rb","x"\r\n3,"say ""hi"", ok","\r\n"\r\n4,plain ünïcödé 💸,-7\r\n';
    expect(scan(text, CRLF, size)).toEqual({ records: 4, headerFields: 3, issues: [], issueCount: 0 });
  });

  it('counts records of an LF file, and accepts a last record without its delimiter', () => {
    expect(scan('a,b\n1,"x\r\ny"\n2,', LF)).toEqual({ records: 2, headerFields: 2, issues: [], issueCount: 0 });
    expect(scan('a,b\r\n1,2', CRLF)).toEqual({ records: 1, headerFields: 2, issues: [], issueCount: 0 });
  });

  it('reads empty files and header-only files', () => {
    expect(scan('', CRLF)).toMatchObject({ records: 0, issues: [] });
    expect(scan('\uFEFFa,b\r\n', CRLF)).toMatchObject({ records: 0, headerFields: 2, issues: [] });
  });
});

describe('strict CSV scanner: malformed files name the line', () => {
  it('the reported defect: a bare LF in an unquoted memo splits the record', () => {
    const text = 'payment_id,memo,metadata\r\np1,line one\nline two,"{""external_id"":""ord-1""}"\r\np2,ok,\r\n';
    const result = scan(text, CRLF);
    expect(messages(result)).toEqual([
      'line 2, record 2: a bare LF outside quotes (records end with CRLF)',
      'line 2, record 2: 2 field(s) where the header has 3',
      'line 3, record 3: 2 field(s) where the header has 3',
    ]);
    // as Excel and Python count it: the header, "p1,line one", "line two,...", "p2,ok,"
    expect(result.records).toBe(3);
  });

  it('a bare CR in a CRLF file, and in an LF file', () => {
    expect(messages(scan("a,b\r\n'\r=1+1,x\r\n", CRLF))).toEqual(['line 2, record 2: a bare CR outside quotes (records end with CRLF)', 'line 2, record 2: 1 field(s) where the header has 2']);
    expect(messages(scan('a,b\nx\ry,1\n', LF))).toEqual(['line 2, record 2: a bare CR outside quotes (records end with LF)', 'line 2, record 2: 1 field(s) where the header has 2']);
  });

  it('a CRLF record in an LF file is an error (the CR is outside quotes)', () => {
    expect(messages(scan('a,b\r\n1,2\n', LF))[0]).toBe('line 1, record 1: a bare CR outside quotes (records end with LF)');
  });

  it('a bare CR at the very end of a CRLF file', () => {
    expect(messages(scan('a,b\r\n1,2\r', CRLF))).toEqual(['line 2, record 2: a bare CR outside quotes (records end with CRLF)']);
  });

  it('a record with too many or too few fields', () => {
    const result = scan('a,b,c\r\n1,2,3\r\n1,2\r\n1,2,3,4\r\n', CRLF);
    expect(messages(result)).toEqual(['line 3, record 3: 2 field(s) where the header has 3', 'line 4, record 4: 4 field(s) where the header has 3']);
    expect(result.records).toBe(3);
  });

  it('a quote inside an unquoted field, text after a closing quote, an unclosed quote', () => {
    expect(messages(scan('a,b\r\nx"y,1\r\n', CRLF))).toEqual(['line 2, record 2: a quote inside an unquoted field']);
    expect(messages(scan('a,b\r\n"x"y,1\r\n', CRLF))).toEqual(['line 2, record 2: text after the closing quote of a field']);
    expect(messages(scan('a,b\r\n1,"open\r\nstill open\r\n', CRLF))).toEqual(['line 2, record 2: a quoted field is never closed']);
  });

  it('names the line where a record starts when quoted line breaks come before it', () => {
    const result = scan('a,b\r\n"1\n2\n3",x\r\ny\r\n', CRLF);
    expect(messages(result)).toEqual(['line 5, record 3: 1 field(s) where the header has 2']);
  });

  it('keeps the first issues and counts the rest', () => {
    const text = `a,b\r\n${'x\ny,1\r\n'.repeat(50)}`;
    const result = scan(text, { eol: 'crlf', maxIssues: 5 });
    expect(result.issues).toHaveLength(5);
    expect(result.issueCount).toBe(100);
  });
});
