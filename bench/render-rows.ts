/**
 * Issue 41's rendering micro-benchmark (not a test): the main-thread CPU one row costs in the
 * report stage's rendering code, without the pull, the files or the compressor.
 *
 *   npx tsx bench/render-rows.ts [--rows 50000] [--rounds 5] [--tz UTC,Europe/Berlin]
 *
 * For each zone, the real PAYMENTS and LEDGER tables are compiled with `compileTable` (as
 * report-folder.ts does) and fed N pre-built rows (bench/payment-rows.ts; one ledger entry per
 * payment), per row:
 *   csv   `csvRow` (CSV fields: zone offsets, display amounts, formula safety)
 *   cells `xlsxRow` (XLSX values and styles)
 *   xml   `RowXmlWriter.write` of cells rendered beforehand (so the pass times the writer alone)
 *         into a real exceljs streaming worksheet whose stream encodes each row to UTF-8 as
 *         exceljs's StreamBuf does and counts it (the sheet XML is built, never compressed)
 * Figures are `process.cpuUsage()` (user + sys, so the GC threads count too) in µs per row: the
 * median of the rounds, and in brackets the lowest (this machine is shared: noise only adds
 * time); xlsx = cells + xml. `gc ms` is the median over rounds of the GC pauses of the three
 * passes. Before the timed rounds an untimed pass hashes every CSV field and every XML chunk: a
 * change that is meant to keep the bytes must keep these digests (the tests pin the files; this
 * is the quick check).
 */
import { createHash } from 'node:crypto';
import { PassThrough } from 'node:stream';
import { parseArgs } from 'node:util';
import { PerformanceObserver } from 'node:perf_hooks';
import ExcelJS, { type Style, type Worksheet } from 'exceljs';
import type { LedgerRow, PaymentRow } from '../src/model/rows.js';
import { compileTable, type CompiledTable, type RenderContext, type XlsxValue } from '../src/sinks/render-cells.js';
import { LEDGER_TABLE, PAYMENTS_TABLE } from '../src/sinks/tables/index.js';
import { RowXmlWriter } from '../src/sinks/xlsx-row-xml.js';
import { ZonedClock } from '../src/model/zoned-time.js';
import { makeLedgerRow, uuid } from '../test/support/rows/builders.js';
import { payment } from './payment-rows.js';

const { values: args } = parseArgs({
  options: { rows: { type: 'string', default: '50000' }, rounds: { type: 'string', default: '5' }, tz: { type: 'string', default: 'UTC,Europe/Berlin' } },
});
const ROWS = Number(args.rows);
const ROUNDS = Number(args.rounds);

function ledgerOf(p: PaymentRow, index: number): LedgerRow {
  const sign = p.direction === 'send' ? -1n : 1n;
  return makeLedgerRow({
    entry_id: uuid(index, 'e'),
    entry_type: p.direction === 'send' ? 'captured' : 'credited',
    wallet_id: p.wallet_id,
    payment_id: p.payment_id,
    effective_time: p.created_at,
    amount_base: p.total_base,
    effect: p.direction === 'send' ? 'debit' : 'credit',
    balance_effect_base: sign * (p.total_base ?? 0n),
    principal_base: p.principal_base,
    network_fee_base: p.network_fee_base,
    processing_fee_base: p.processing_fee_base,
    processing_fee_bps: p.processing_fee_bps,
  });
}

const payments = Array.from({ length: ROWS }, (_, i) => payment(i));
const ledger = payments.map(ledgerOf);
const walletNames = new Map(payments.slice(0, 200).map((p, i) => [p.wallet_id, `Wallet ${i}`]));

/**
 * A worksheet of a real streaming workbook (real style registry) whose stream encodes each row's
 * text to UTF-8 as exceljs's StreamBuf does (`Buffer.from`: a row built as a rope is flattened
 * there, so the cost of how the text was built shows), counts it, and may hash it.
 */
function sheetSink(name: string, hash: ReturnType<typeof createHash> | null): { sheet: Worksheet; chars: () => number } {
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: new PassThrough(), useStyles: true, useSharedStrings: false });
  const sheet = wb.addWorksheet(name);
  let chars = 0;
  // worksheet-writer.js opens `_stream` on first use: ours is there first
  (sheet as unknown as { _stream: unknown })._stream = {
    write(text: unknown) {
      // the sheet's head comes as exceljs StringBufs (the same in every run): only rows are counted
      if (typeof text !== 'string') return;
      if (Buffer.from(text, 'utf8').length === 0) return;
      chars += text.length;
      hash?.update(text);
    },
  };
  return { sheet, chars: () => chars };
}

const cpuUs = (): number => {
  const u = process.cpuUsage();
  return u.user + u.system;
};

let gcMs = 0;
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) gcMs += e.duration;
}).observe({ entryTypes: ['gc'] });
// gc entries reach the observer on a later turn of the event loop than setImmediate's
const settle = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 20));

interface Round {
  csv: number;
  cells: number;
  xml: number;
  gcMs: number;
}

type Cells = { values: XlsxValue[]; styles: Partial<Style>[] };

async function round<Row>(table: CompiledTable<Row>, rows: readonly Row[], cells: readonly Cells[]): Promise<Round> {
  const timed = async (pass: () => number): Promise<{ us: number; gcMs: number }> => {
    await settle();
    gcMs = 0;
    const t = cpuUs();
    if (pass() === 0) throw new Error('nothing rendered');
    const us = (cpuUs() - t) / rows.length;
    await settle();
    return { us, gcMs };
  };
  const csv = await timed(() => {
    let keep = 0;
    for (const row of rows) keep += table.csvRow(row).length;
    return keep;
  });
  const xlsx = await timed(() => {
    let keep = 0;
    for (const row of rows) keep += table.xlsxRow(row).values.length;
    return keep;
  });
  // the XML of cells rendered beforehand, so this pass is the writer's alone
  const writer = new RowXmlWriter(sheetSink('bench', null).sheet, table.headers.length);
  const xml = await timed(() => {
    let keep = 0;
    for (const c of cells) keep += writer.write(c.values, c.styles);
    writer.flush();
    return keep;
  });
  return { csv: csv.us, cells: xlsx.us, xml: xml.us, gcMs: csv.gcMs + xlsx.gcMs + xml.gcMs };
}

function digests<Row>(table: CompiledTable<Row>, rows: readonly Row[]): { csv: string; xml: string; chars: number } {
  const csv = createHash('sha256');
  for (const row of rows) csv.update(`${table.csvRow(row).join('\u001f')}\n`);
  const xml = createHash('sha256');
  const sink = sheetSink('digest', xml);
  const writer = new RowXmlWriter(sink.sheet, table.headers.length);
  for (const row of rows) {
    const out = table.xlsxRow(row);
    writer.write(out.values, out.styles);
  }
  writer.flush();
  return { csv: csv.digest('hex').slice(0, 16), xml: xml.digest('hex').slice(0, 16), chars: sink.chars() };
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
const fmt = (xs: number[]): string => `${median(xs).toFixed(2).padStart(6)} (${Math.min(...xs).toFixed(2)})`;

async function measure<Row>(name: string, tz: string, spec: unknown, rows: readonly Row[]): Promise<void> {
  const ctx: RenderContext = { clock: new ZonedClock(tz), assetDecimals: new Map(), assetNames: new Map(), asOf: '2026-11-01T00:00:00.000000Z', walletNames };
  const table = compileTable(spec as typeof PAYMENTS_TABLE, ctx) as unknown as CompiledTable<Row>;
  const d = digests(table, rows);
  const cells = rows.map((row) => {
    const out = table.xlsxRow(row);
    return { values: [...out.values], styles: [...out.styles] };
  });
  const rounds: Round[] = [];
  for (let r = 0; r < ROUNDS; r++) rounds.push(await round(table, rows, cells));
  const of = (k: keyof Round): number[] => rounds.map((x) => x[k]);
  const xlsx = rounds.map((x) => x.cells + x.xml);
  process.stdout.write(
    `${name.padEnd(8)} ${tz.padEnd(14)} csv ${fmt(of('csv'))}  cells ${fmt(of('cells'))}  xml ${fmt(of('xml'))}  xlsx ${fmt(xlsx)} µs/row` +
      `  gc ${Math.round(median(of('gcMs')))} ms  digests csv ${d.csv} xml ${d.xml} (${d.chars} chars)\n`,
  );
}

process.stdout.write(`${ROWS} rows, median of ${ROUNDS} rounds, node ${process.version}\n`);
for (const tz of (args.tz as string).split(',')) {
  await measure('payments', tz, PAYMENTS_TABLE, payments);
  await measure('ledger', tz, LEDGER_TABLE, ledger);
}
