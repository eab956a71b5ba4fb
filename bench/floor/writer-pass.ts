/**
 * One pass of the writers' floor (file-rows.ts) as a process of its own, for a profile of that pass
 * alone (writers-gc.ts):
 *
 *   node --cpu-prof --import tsx bench/floor/writer-pass.ts REPORT_DIR parse|csv|xlsx
 *
 * `parse` reads every CSV of the report folder (csv-parse) and writes nothing; `csv` and `xlsx`
 * write what it reads with csv-stringify or exceljs streaming, as the floor does.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { bareWorkbook, csvSink, pass, reportCsvFiles, type Sink } from './file-rows.js';

const [reportDir, mode] = process.argv.slice(2);
if (reportDir === undefined || (mode !== 'parse' && mode !== 'csv' && mode !== 'xlsx')) throw new Error('usage: writer-pass.ts REPORT_DIR parse|csv|xlsx');
const out = mkdtempSync(path.join(tmpdir(), 'payexport-writer-pass-'));
try {
  const files = reportCsvFiles(reportDir);
  if (mode === 'xlsx') {
    const workbook = bareWorkbook(out);
    try {
      await pass(reportDir, files, workbook.sheet);
      await workbook.commit();
    } finally {
      workbook.restore();
    }
  } else {
    const nothing = (): Sink => ({ write: () => undefined, end: async () => undefined });
    await pass(reportDir, files, mode === 'csv' ? (name) => csvSink(out, name) : nothing);
  }
} finally {
  rmSync(out, { recursive: true, force: true });
}
