/**
 * The writers' floor of issue 41: csv-stringify and exceljs streaming fed the very rows the export
 * wrote. Every CSV of the run's report folder is read back (csv-parse, streamed), and written again
 * by the bare libraries: csv-stringify to a file, and one exceljs streaming worksheet per CSV
 * (no styles, no shared strings: the cheapest workbook exceljs writes). The workbook holds the same
 * sheets as the CSVs, so these are the workbook's rows too.
 *
 * Each writer's CPU is the process's CPU of a pass that parses and writes, less a pass that only
 * parses: the rows never have to be held whole (a 1M run's payments would not fit), and the
 * difference is what the bare library adds for those rows.
 *
 * Bare means as installed: the CLI swaps the zip's CRC-32 for zlib's native one at start-up
 * (src/platform/zip-crc.ts), and the bench applies the same start-up settings to its own process, so the
 * floor's workbook is written with `crc-32`'s own sum put back for its length.
 */
import { createReadStream, createWriteStream, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parse } from 'csv-parse';
import { stringify } from 'csv-stringify';
import ExcelJS from 'exceljs';
import { crc32Package, javascriptCrc32 } from '../../src/platform/zip-crc.js';

export interface FileRowsFloor {
  rows: number;
  files: number;
  csvStringifySeconds: number;
  exceljsSeconds: number;
}

export type Sink = { write(row: string[]): Promise<void> | void; end(): Promise<void> };

const cpuSeconds = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};

/** The report folder's CSV files, in the order every pass reads them. */
export function reportCsvFiles(reportDir: string): string[] {
  return readdirSync(reportDir).filter((f) => f.endsWith('.csv')).sort();
}

/** csv-stringify of one file's rows to a file of the same name in `out`. */
export function csvSink(out: string, name: string): Sink {
  const s = stringify({ bom: true, record_delimiter: 'windows' });
  const file = createWriteStream(path.join(out, name));
  s.pipe(file);
  return {
    write: async (row) => {
      if (!s.write(row)) await once(s, 'drain');
    },
    end: async () => {
      s.end();
      await once(file, 'close');
    },
  };
}

/**
 * exceljs's cheapest streaming workbook in `out`, a sheet per file, with `crc-32`'s own sum in place
 * of the native one until `restore` (see above).
 */
export function bareWorkbook(out: string): { sheet: (name: string) => Sink; commit: () => Promise<void>; restore: () => void } {
  const installed = crc32Package.buf;
  crc32Package.buf = javascriptCrc32;
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: path.join(out, 'floor.xlsx'), useStyles: false, useSharedStrings: false });
  return {
    sheet: (name) => {
      const ws = wb.addWorksheet(name.replace(/\.csv$/, '').slice(0, 31));
      return {
        write: (row) => ws.addRow(row).commit(),
        end: async () => ws.commit(),
      };
    },
    commit: async () => void (await wb.commit()),
    restore: () => void (crc32Package.buf = installed),
  };
}

export async function pass(dir: string, files: string[], open: (name: string) => Sink): Promise<{ seconds: number; rows: number }> {
  const start = cpuSeconds();
  let rows = 0;
  for (const file of files) {
    const sink = open(file);
    const parser = createReadStream(path.join(dir, file)).pipe(parse({ bom: true, relax_column_count: true }));
    for await (const row of parser as AsyncIterable<string[]>) {
      rows++;
      await sink.write(row);
    }
    await sink.end();
  }
  return { seconds: cpuSeconds() - start, rows };
}

export async function measureFileRows(reportDir: string): Promise<FileRowsFloor> {
  const files = reportCsvFiles(reportDir);
  const out = mkdtempSync(path.join(tmpdir(), 'payexport-floor-'));
  try {
    const parsing = await pass(reportDir, files, () => ({ write: () => undefined, end: async () => undefined }));
    const csv = await pass(reportDir, files, (name) => csvSink(out, name));
    let xlsx: { seconds: number; rows: number };
    let commit: number;
    const workbook = bareWorkbook(out);
    try {
      xlsx = await pass(reportDir, files, workbook.sheet);
      const start = cpuSeconds();
      await workbook.commit();
      commit = cpuSeconds() - start;
    } finally {
      workbook.restore();
    }
    return {
      rows: parsing.rows,
      files: files.length,
      csvStringifySeconds: Math.max(0, csv.seconds - parsing.seconds),
      exceljsSeconds: Math.max(0, xlsx.seconds + commit - parsing.seconds),
    };
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}
