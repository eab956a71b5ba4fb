/**
 * The exceljs internals the XLSX writer relies on (src/platform/exceljs-internals.ts): the installed
 * exceljs is the version they were written against, its files load, and a streaming worksheet has
 * every private field they use. An upgrade fails here first, and the row XML test
 * (test/unit/sinks/xlsx-row-xml.test.ts) then shows whether the bytes still agree.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { dateToExcel, drawingInternals, EXCELJS_VERSION, rowWriterInternals, sheetPipe, ValueType, WorkbookWriter, xmlEncode } from '../../../src/platform/exceljs-internals.js';

const require = createRequire(import.meta.url);
const dir = mkdtempSync(path.join(tmpdir(), 'payexport-exceljs-internals-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('exceljs internals', () => {
  it('are read from the version they were written against (package.json pins it exactly)', () => {
    const installed = JSON.parse(readFileSync(require.resolve('exceljs/package.json'), 'utf8')) as { version: string };
    expect(installed.version).toBe(EXCELJS_VERSION);
    const ours = JSON.parse(readFileSync(path.resolve(__dirname, '../../../package.json'), 'utf8')) as { dependencies: Record<string, string> };
    expect(ours.dependencies.exceljs).toBe(EXCELJS_VERSION);
  });

  it('load from their own files', () => {
    expect(typeof WorkbookWriter).toBe('function');
    expect(xmlEncode('a<b\u0001')).toBe('a&lt;b');
    expect(dateToExcel(new Date(Date.UTC(1900, 0, 1)))).toBe(2);
    expect(ValueType.String).toBe(3);
  });

  it('are all present on a streaming worksheet', async () => {
    const writer = new WorkbookWriter({ filename: path.join(dir, 'probe.xlsx'), useStyles: true, useSharedStrings: false });
    const sheet = writer.addWorksheet('probe');
    expect(sheetPipe(sheet)._writableState?.length).toBeTypeOf('number');
    expect(typeof drawingInternals(sheet)._sheetRelsWriter.addRelationship).toBe('function');
    expect(rowWriterInternals(sheet)._rowZero).toBe(1);
    sheet.commit();
    await writer.commit();
    expect(() => drawingInternals(sheet)).toThrow(/committed/);
  });
});
