/**
 * Sinks benchmark (not a test): `npx tsx bench/sinks.ts [--rows 100000,300000]`.
 *
 * Writes the same synthetic payments (51 columns) through our writers and through the bare
 * libraries, each variant in its own child process so that peak RSS (getrusage maxrss) is its own:
 *   csv-bare    csv-stringify fed naive arrays (String() of every field) → file, awaiting 'drain'
 *   csv-ours    CsvTableWriter: full rendering (zone offsets, display amounts, formula safety), sha256, fsync
 *   xlsx-bare   exceljs WorkbookWriter, useStyles off, naive values, row.commit() — no backpressure
 *   xlsx-bare-styled  same cell values and shared styles as ours, no backpressure
 *   xlsx-ours   StreamingWorkbook + XlsxTableSheets: rendering, styles, notes, bounded bytes in flight
 * Row generation is inside every timing, so the percentages compare like with like. This VM is
 * shared and noisy: `--repeat N` runs the variants N times, interleaved, and keeps each one's
 * fastest run (and its largest peak RSS).
 */
import { execFileSync } from 'node:child_process';
import { once } from 'node:events';
import { createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { stringify } from 'csv-stringify';
import ExcelJS from 'exceljs';
import type { PaymentRow } from '../src/model/rows.js';
import { CsvTableWriter } from '../src/sinks/csv-table-writer.js';
import { compileTable } from '../src/sinks/render-cells.js';
import { PAYMENTS_TABLE } from '../src/sinks/tables/index.js';
import { StreamingWorkbook } from '../src/sinks/xlsx-workbook.js';
import { XlsxTableSheets } from '../src/sinks/xlsx-table-sheets.js';
import { ZonedClock } from '../src/model/zoned-time.js';
import { syntheticPayments } from '../test/support/sinks/rows.js';

export const VARIANTS = ['csv-bare', 'csv-ours', 'xlsx-bare', 'xlsx-bare-styled', 'xlsx-ours'] as const;
export type Variant = (typeof VARIANTS)[number];

const ctx = { clock: new ZonedClock('Europe/Berlin'), assetDecimals: new Map<string, number>(), assetNames: new Map<string, string>(), asOf: '2026-11-01T00:00:00.000000Z' };

function naiveArray(r: PaymentRow): string[] {
  const out: string[] = [];
  for (const col of PAYMENTS_TABLE.columns) {
    const v = col.get(r as never, ctx);
    out.push(v === null || v === undefined ? '' : Array.isArray(v) ? v.join(';') : typeof v === 'object' ? JSON.stringify(v) : String(v));
  }
  return out;
}

function naiveCells(r: PaymentRow): (string | number | null)[] {
  return PAYMENTS_TABLE.columns.map((col) => {
    const v = col.get(r as never, ctx);
    if (v === null || v === undefined) return null;
    if (typeof v === 'bigint') return Number(v);
    if (typeof v === 'number') return v;
    return Array.isArray(v) ? v.join(';') : typeof v === 'object' ? JSON.stringify(v) : String(v);
  });
}

async function runVariant(variant: Variant, rows: number, dir: string): Promise<void> {
  const path = join(dir, variant.startsWith('csv') ? 'out.csv' : 'out.xlsx');
  const start = performance.now();
  if (variant === 'csv-bare') {
    const s = stringify({ bom: true, record_delimiter: 'windows' });
    const file = createWriteStream(path);
    s.pipe(file);
    s.write(PAYMENTS_TABLE.columns.map((c) => c.name));
    for (const r of syntheticPayments(rows)) if (!s.write(naiveArray(r))) await once(s, 'drain');
    s.end();
    await once(file, 'close');
  } else if (variant === 'csv-ours') {
    const w = CsvTableWriter.open(compileTable(PAYMENTS_TABLE, ctx), path, { bom: true, eol: 'crlf' });
    for (const r of syntheticPayments(rows)) await w.write(r);
    await w.close();
  } else if (variant === 'xlsx-bare') {
    const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: path, useStyles: false, useSharedStrings: false });
    const ws = wb.addWorksheet('Payments');
    ws.addRow(PAYMENTS_TABLE.columns.map((c) => c.name)).commit();
    for (const r of syntheticPayments(rows)) ws.addRow(naiveCells(r)).commit();
    ws.commit();
    await wb.commit();
  } else if (variant === 'xlsx-bare-styled') {
    const table = compileTable(PAYMENTS_TABLE, ctx);
    const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: path, useStyles: true, useSharedStrings: false });
    const ws = wb.addWorksheet('Payments');
    ws.addRow([...table.headers]).commit();
    for (const r of syntheticPayments(rows)) {
      const out = table.xlsxRow(r);
      const row = ws.addRow(out.values);
      for (let i = 0; i < out.styles.length; i++) row.getCell(i + 1).style = out.styles[i] as Partial<ExcelJS.Style>;
      row.commit();
    }
    ws.commit();
    await wb.commit();
  } else {
    // BENCH_IN_FLIGHT=<bytes> tries another bound on XML waiting for the compressor
    const inFlight = process.env.BENCH_IN_FLIGHT === undefined ? {} : { maxBytesInFlight: Number(process.env.BENCH_IN_FLIGHT) };
    const wb = StreamingWorkbook.open({ path, documentDate: new Date('2026-11-01T00:00:00Z'), creator: 'bench', ...inFlight });
    const sheets = new XlsxTableSheets(wb, compileTable(PAYMENTS_TABLE, ctx));
    for (const r of syntheticPayments(rows)) await sheets.write(r);
    await sheets.close();
    await wb.commit();
  }
  const ms = performance.now() - start;
  const result = { variant, rows, ms, bytes: statSync(path).size, maxRssMb: process.resourceUsage().maxRSS / 1024 };
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

export interface SinkResult {
  variant: Variant;
  rows: number;
  ms: number;
  bytes: number;
  maxRssMb: number;
}

function table(results: SinkResult[]): string {
  const ceiling = (r: SinkResult): SinkResult | undefined => {
    const bare = results.filter((x) => x.rows === r.rows && x.variant.startsWith(r.variant.slice(0, 4)) && x.variant.includes('bare'));
    return bare.sort((a, b) => a.ms - b.ms)[0];
  };
  const lines = ['| variant | rows | s | rows/s | file MB | peak RSS MB | vs fastest bare |', '|---|---:|---:|---:|---:|---:|---:|'];
  for (const r of results) {
    const c = ceiling(r);
    const rate = (r.rows / r.ms) * 1000;
    const pct = c === undefined ? '' : `${Math.round((c.ms / r.ms) * 100)} %`;
    lines.push(`| ${r.variant} | ${r.rows.toLocaleString('en-US')} | ${(r.ms / 1000).toFixed(1)} | ${Math.round(rate).toLocaleString('en-US')} | ${(r.bytes / 1e6).toFixed(1)} | ${Math.round(r.maxRssMb)} | ${pct} |`);
  }
  return lines.join('\n');
}

/** Every variant at every row count, each in its own child process; the fastest of `repeat` interleaved runs. */
export async function measureSinks(counts: readonly number[], only: readonly string[] = VARIANTS, repeat = 1): Promise<SinkResult[]> {
  const results: SinkResult[] = [];
  for (const rows of counts) {
    const best = new Map<Variant, SinkResult>();
    for (let round = 0; round < repeat; round++) {
      for (const variant of VARIANTS.filter((v) => only.includes(v))) {
        const dir = mkdtempSync(join(tmpdir(), 'payexport-bench-'));
        try {
          const out = execFileSync(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), '--child', variant, String(rows), dir], { encoding: 'utf8', maxBuffer: 1 << 20 });
          const result = JSON.parse(out.trim().split('\n').pop() as string) as SinkResult;
          process.stderr.write(`${variant} ${rows}: ${Math.round((rows / result.ms) * 1000)} rows/s, ${Math.round(result.maxRssMb)} MB\n`);
          const previous = best.get(variant);
          best.set(variant, previous === undefined ? result : { ...(result.ms < previous.ms ? result : previous), maxRssMb: Math.max(result.maxRssMb, previous.maxRssMb) });
        } finally {
          rmSync(dir, { recursive: true, force: true });
        }
      }
    }
    results.push(...best.values());
  }
  return results;
}

const args = process.argv.slice(2);
const childAt = args.indexOf('--child');
if (childAt >= 0) {
  const [variant, rows, dir] = args.slice(childAt + 1) as [Variant, string, string];
  await runVariant(variant, Number(rows), dir);
} else if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const rowsArg = args[args.indexOf('--rows') + 1];
  const counts = (args.includes('--rows') && rowsArg !== undefined ? rowsArg : '100000,300000').split(',').map(Number);
  const only = args.includes('--only') ? (args[args.indexOf('--only') + 1] ?? '').split(',') : [...VARIANTS];
  const repeat = args.includes('--repeat') ? Number(args[args.indexOf('--repeat') + 1]) : 1;
  console.log(table(await measureSinks(counts, only, repeat)));
}
