/**
 * Arbitrary text in every free-text column, written by the real CSV writer with the real table
 * specs and read back by Python's csv module (an independent reader): the record count is the
 * number of rows written, every field is what the product meant to write (the text itself, or
 * the text after the documented leading `'` when it begins with a formula trigger), and no field
 * begins with a trigger. Both `csv.eol` settings, with and without a BOM.
 *
 * One file per run holding several rows, read by one Python process: a process per row would
 * cost seconds.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import type { PaymentRow } from '../../src/model/rows.js';
import type { BalanceRow, FeeRow, Finding, SummaryCheckRow } from '../../src/model/results.js';
import type { LedgerRow } from '../../src/model/rows.js';
import { FORMULA_TRIGGER_CHARS } from '../../src/sinks/cells.js';
import type { TableSpec } from '../../src/model/column-spec.js';
import { CsvTableWriter, type CsvOptions } from '../../src/sinks/csv-table-writer.js';
import { compileTable, type RenderContext } from '../../src/sinks/render-cells.js';
import { BALANCES_TABLE, EXCEPTIONS_TABLE, FEES_TABLE, LEDGER_TABLE, OPEN_ITEMS_TABLE, PAYMENTS_TABLE, SUMMARY_CHECK_TABLE } from '../../src/sinks/tables/index.js';
import { ZonedClock } from '../../src/model/zoned-time.js';
import { ASSET, balanceRow, feeRow, finding, ledgerRow, paymentRow, summaryRow } from '../support/sinks/rows.js';
import { readCsvWithPython, readersMissing } from '../support/readers/readers.js';

const reason = readersMissing('csv');
const root = mkdtempSync(join(tmpdir(), 'payexport-csv-prop-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

// --- hostile text ---------------------------------------------------------------------------

const TRIGGERS: ReadonlySet<string> = new Set(FORMULA_TRIGGER_CHARS);
const PIECES = ['\r', '\n', '\r\n', '\n\r', '"', '""', ',', ';', '\t', '\0', "'", ' ', '\u200F', '\u202E', '\u200B', '\uFEFF', '💸', '👩‍👩‍👧', 'é', 'line one', 'line two', '=HYPERLINK("http://evil.example","x")', '=', '+', '-', '@', '\uFF1D', '\uFF0B', '\uFF0D', '\uFF20', '1,5', '-1500'];
const piece = fc.constantFrom(...PIECES);
/** Text made of the pieces that break CSV and spreadsheets, in any order. */
const brittle = fc.array(fc.oneof(piece, fc.string({ unit: 'grapheme', maxLength: 6 })), { minLength: 1, maxLength: 12 }).map((parts) => parts.join(''));
/** Past Excel's 32,767-character cell limit, with line breaks and quotes inside. */
const long = fc.tuple(brittle, fc.integer({ min: 20_000, max: 40_000 })).map(([p, n]) => {
  const text = (p + '\r\n"x",\n').repeat(Math.ceil(n / (p.length + 7))).slice(0, n);
  // never end on half a surrogate pair
  return /[\uD800-\uDBFF]$/.test(text) ? text.slice(0, -1) : text;
});
const leadingTrigger = fc.tuple(fc.constantFrom(...FORMULA_TRIGGER_CHARS), brittle).map(([t, s]) => t + s);
/** Well-formed Unicode only: a lone surrogate cannot be encoded in UTF-8 at all (see the report). */
const hostileText = fc.oneof({ arbitrary: brittle, weight: 6 }, { arbitrary: leadingTrigger, weight: 3 }, { arbitrary: fc.string({ unit: 'grapheme' }), weight: 2 }, { arbitrary: long, weight: 1 });

const csvOptions = fc.record<CsvOptions>({ eol: fc.constantFrom('crlf', 'lf'), bom: fc.boolean() });

/** What the product means to write for a text: the text, with `'` first when it begins with a trigger (cells.ts). */
function meant(text: string): string {
  return text.length > 0 && TRIGGERS.has(text[0] as string) ? `'${text}` : text;
}

function context(assetName: string): RenderContext {
  return { clock: new ZonedClock('Europe/Berlin'), assetDecimals: new Map([[ASSET, 4]]), assetNames: new Map([[ASSET, assetName]]), asOf: '2026-11-01T00:00:00.000000Z' };
}

let files = 0;

/** Writes `rows` through the real writer and reads the file back with Python; returns the rows read and the rows meant. */
async function roundTrip<Row>(spec: TableSpec<Row>, rows: readonly Row[], options: CsvOptions, ctx: RenderContext): Promise<{ read: string[][]; meantRows: string[][]; header: string[] }> {
  const table = compileTable(spec, ctx);
  files += 1;
  const path = join(root, `${files}-${spec.file}`);
  const writer = CsvTableWriter.open(table, path, options);
  for (const row of rows) await writer.write(row);
  const result = await writer.close();
  expect(result.rows).toBe(rows.length);
  const csv = readCsvWithPython(path);
  rmSync(path);
  expect(csv.header).toEqual([...table.headers]);
  expect(csv.records, `Python's csv reads ${csv.records} records from ${rows.length} rows (eol ${options.eol}, bom ${options.bom})`).toBe(rows.length);
  return { read: csv.rows, meantRows: rows.map((r) => table.csvRow(r)), header: [...table.headers] };
}

/** No field begins with a trigger, except plain numbers in numeric columns (a negative amount stays a number). */
function expectNoTriggerStart(spec: TableSpec<never>, rows: readonly string[][]): void {
  const numeric = new Set(['base', 'display', 'count', 'bps', 'decimal']);
  for (const row of rows) {
    row.forEach((value, i) => {
      const column = spec.columns[i];
      if (value === '' || !TRIGGERS.has(value[0] as string)) return;
      expect(column !== undefined && numeric.has(column.type) && /^-?\d+(\.\d+)?$/.test(value), `${column?.name ?? i}: ${JSON.stringify(value.slice(0, 40))}`).toBe(true);
    });
  }
}

const RUNS = { numRuns: 12 } as const;
const rowsOf = <T>(arb: fc.Arbitrary<T>): fc.Arbitrary<T[]> => fc.array(arb, { minLength: 1, maxLength: 6 });

describe.skipIf(reason !== null)(`CSV through Python's csv module (property)${reason === null ? '' : ` — skipped: ${reason}`}`, () => {
  const paymentText = fc.record({
    payment_id: hostileText,
    description: fc.option(hostileText),
    error_detail: fc.option(hostileText),
    error_type: fc.option(hostileText),
    quote_rate: fc.option(hostileText),
    metadata: fc.option(fc.dictionary(hostileText, hostileText, { maxKeys: 4 })),
    flags: fc.array(hostileText, { maxLength: 3 }),
  });

  it('payments.csv and open-items.csv: memo, error detail, metadata keys and values, flags, asset name', async () => {
    await fc.assert(
      fc.asyncProperty(rowsOf(paymentText), hostileText, csvOptions, async (texts, assetName, options) => {
        const rows: PaymentRow[] = texts.map((t) => paymentRow({ ...t, currency: ASSET, unit: 'base units' }));
        for (const spec of [PAYMENTS_TABLE, OPEN_ITEMS_TABLE]) {
          const { read, meantRows, header } = await roundTrip(spec, rows, options, context(assetName));
          expect(read).toEqual(meantRows);
          expectNoTriggerStart(spec as TableSpec<never>, read);
          read.forEach((fields, r) => {
            const field = (name: string): string => fields[header.indexOf(name)] as string;
            const text = texts[r] as (typeof texts)[number];
            expect(field('payment_id')).toBe(meant(text.payment_id));
            expect(field('description')).toBe(text.description === null ? '' : meant(text.description));
            expect(field('display_currency')).toBe(meant(assetName));
            if (spec !== PAYMENTS_TABLE) return;
            expect(field('error_detail')).toBe(text.error_detail === null ? '' : meant(text.error_detail));
            expect(field('flags')).toBe(text.flags.length === 0 ? '' : meant(text.flags.join(';')));
            // metadata is JSON text: keys and values come back exactly
            expect(field('metadata') === '' ? null : JSON.parse(field('metadata'))).toEqual(text.metadata);
          });
        }
      }),
      RUNS,
    );
  });

  it('exceptions.csv: finding message and subject', async () => {
    const findingText = fc.record({ message: hostileText, subject_id: hostileText, expected: fc.option(hostileText) });
    await fc.assert(
      fc.asyncProperty(rowsOf(findingText), csvOptions, async (texts, options) => {
        const rows: Finding[] = texts.map((t) => finding(t));
        const { read, meantRows, header } = await roundTrip(EXCEPTIONS_TABLE, rows, options, context('TestCoin'));
        expect(read).toEqual(meantRows);
        expectNoTriggerStart(EXCEPTIONS_TABLE as TableSpec<never>, read);
        read.forEach((fields, r) => expect(fields[header.indexOf('message')]).toBe(meant((texts[r] as (typeof texts)[number]).message)));
      }),
      RUNS,
    );
  });

  it('ledger, fees, balances and summary-check: every id and list column', async () => {
    await fc.assert(
      fc.asyncProperty(rowsOf(fc.tuple(hostileText, hostileText, fc.array(hostileText, { maxLength: 3 }))), csvOptions, async (texts, options) => {
        const ctx = context('TestCoin');
        const ledger: LedgerRow[] = texts.map(([a, b, flags]) => ledgerRow({ entry_id: a, payment_id: b, wallet_id: a, flags }));
        const fees: FeeRow[] = texts.map(([a, b]) => feeRow({ wallet_id: a, environment_id: b }));
        const balances: BalanceRow[] = texts.map(([a, b]) => balanceRow({ wallet_id: a, environment_id: b }));
        const summary: SummaryCheckRow[] = texts.map(([a, b]) => summaryRow({ scope_id: a, environment_id: b }));
        const tables: Array<[TableSpec<never>, readonly unknown[]]> = [
          [LEDGER_TABLE as TableSpec<never>, ledger],
          [FEES_TABLE as TableSpec<never>, fees],
          [BALANCES_TABLE as TableSpec<never>, balances],
          [SUMMARY_CHECK_TABLE as TableSpec<never>, summary],
        ];
        for (const [spec, rows] of tables) {
          const { read, meantRows } = await roundTrip(spec, rows as never[], options, ctx);
          expect(read).toEqual(meantRows);
          expectNoTriggerStart(spec, read);
        }
      }),
      { numRuns: 6 },
    );
  });
});
