import { createHash } from 'node:crypto';
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { neutralizeFormula, xlsxText } from '../../../src/sinks/cells.js';
import { openReportFolder } from '../../../src/sinks/report-folder.js';
import { tableColumns } from '../../../src/model/column-spec.js';
import { ALL_TABLES, LEDGER_TABLE, PAYMENTS_TABLE } from '../../../src/sinks/tables/index.js';
import { toolInfo } from '../../../src/sinks/tool-info.js';
import { verify } from '../../../src/sinks/verify.js';
import { AppError } from '../../../src/util/errors.js';
import { ALL_BITCOIN_MSATS, BEYOND_2_53, HOSTILE_TEXTS, paymentRow, smallFixture } from '../../support/sinks/rows.js';
import { dumpWorkbook, readCsv, readCsvObjects, readWorkbook, sheetObjects } from '../../support/sinks/read-back.js';
import { fixtureOptions, writeSmallReport } from '../../support/sinks/write-report.js';
import { zipEntries } from '../../support/sinks/zip-entries.js';
import { checkFolderWithIndependentReaders } from '../../support/readers/folder-check.js';
import { readCsvWithPython, readersMissing } from '../../support/readers/readers.js';

const readersGap = readersMissing('both');
const GOLDEN = join(import.meta.dirname, 'golden');
const CONTRACT_COLUMNS: Record<string, string[]> = {
  'payments.csv': ['payment_id', 'environment_id', 'wallet_id', 'direction', 'kind', 'category', 'status', 'created_at', 'currency', 'unit', 'principal_base', 'network_fee_base', 'processing_fee_base', 'processing_fee_source', 'total_base'],
  'ledger.csv': ['entry_id', 'entry_type', 'wallet_id', 'payment_id', 'effective_time', 'currency', 'unit', 'amount_base'],
  'balances.csv': ['wallet_id', 'currency', 'opening_base', 'credits_base', 'debits_base', 'closing_base'],
  'exceptions.csv': ['check_id', 'severity', 'subject_kind', 'subject_id', 'message'],
};

async function errorOf(promise: Promise<unknown>): Promise<AppError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('expected an AppError');
}

let root: string;
let dir: string;
const fixture = smallFixture();

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'payexport-sinks-'));
  dir = (await writeSmallReport(join(root, 'a'))).dir;
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('report folder: files and columns', () => {
  it('writes every contract file and nothing else, 0640, under <out>/<job>/<period>', async () => {
    expect(dir).toBe(join(root, 'a', 'month-end', '2026-10'));
    const files = (await readdir(dir)).sort();
    expect(files).toEqual(['balances.csv', 'bills.csv', 'exceptions.csv', 'fee-rates.csv', 'fees.csv', 'fees.html', 'ledger.csv', 'manifest.json', 'open-items.csv', 'payments.csv', 'report.xlsx', 'summary-check.csv']);
    for (const f of files) expect((await stat(join(dir, f))).mode & 0o037).toBe(0);
    expect(await readdir(join(root, 'a', 'month-end'))).toEqual(['2026-10']);
  });

  it('has the contract columns and one row per input row in every CSV', async () => {
    const expectedRows: Record<string, number> = {
      'payments.csv': fixture.payments.length,
      'ledger.csv': fixture.ledger.length,
      'fees.csv': fixture.fees.length,
      'balances.csv': fixture.balances.length,
      'summary-check.csv': fixture.summary.length,
      // no bill in the small fixture: the contract file is still written, header only
      'bills.csv': 0,
      'fee-rates.csv': 0,
      'exceptions.csv': fixture.findings.length,
      'open-items.csv': fixture.openItems.length,
    };
    for (const spec of ALL_TABLES) {
      const { header, rows } = await readCsv(join(dir, spec.file));
      expect(header).toEqual(tableColumns(spec).map((c) => c.name));
      if (spec.columns.some((c) => c.name === 'wallet_id')) expect(header, `${spec.file} names the wallet`).toContain('wallet_name');
      for (const col of CONTRACT_COLUMNS[spec.file] ?? []) expect(header).toContain(col);
      expect(rows).toHaveLength(expectedRows[spec.file] as number);
    }
  });

  it('starts CSVs with a BOM and ends records with CRLF by default', async () => {
    const { raw } = await readCsv(join(dir, 'ledger.csv'));
    expect([...raw.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(raw.toString('utf8').split('\r\n')).toHaveLength(fixture.ledger.length + 2);
  });

  it('renders instants in the reporting zone with offset plus a UTC column, and amounts as plain digits', async () => {
    const [first, dst] = await readCsvObjects(join(dir, 'payments.csv'));
    expect(first).toMatchObject({ created_at: '2026-10-01T06:00:00.123456+02:00', created_at_utc: '2026-10-01T04:00:00.123456Z', principal_base: '150000000', principal: '0.00150000000', display_currency: 'BTC' });
    expect(dst).toMatchObject({ created_at: '2026-10-25T02:30:00.000000+02:00', updated_at: '2026-10-25T02:30:00.000000+01:00', processing_fee_base: '', processing_fee_source: 'none' });
  });

  it('matches the golden files', async () => {
    const update = process.env.UPDATE_GOLDEN === '1';
    if (update) await mkdir(GOLDEN, { recursive: true });
    for (const spec of ALL_TABLES) {
      const actual = await readFile(join(dir, spec.file));
      if (update) await writeFile(join(GOLDEN, spec.file), actual);
      expect(actual.equals(await readFile(join(GOLDEN, spec.file))), `${spec.file} differs from the golden file (UPDATE_GOLDEN=1 to accept)`).toBe(true);
    }
    // the tool version appears on the Overview; keep the golden file independent of releases
    const dump = dumpWorkbook(await readWorkbook(join(dir, 'report.xlsx'))).replaceAll(`payexport ${toolInfo().version}`, 'payexport <version>');
    if (update) await writeFile(join(GOLDEN, 'report.xlsx.txt'), dump);
    expect(dump).toBe(await readFile(join(GOLDEN, 'report.xlsx.txt'), 'utf8'));
  });
});

describe('report folder: workbook', () => {
    // a table its caller did not write (the fixture has no bills nor fee rates) is added, empty, after the written ones
  it('puts Overview first and Definitions last, each table sheet frozen and filtered', async () => {
    const wb = await readWorkbook(join(dir, 'report.xlsx'));
    // every check, then the fee charts with the cells they read, sit after the tables
    expect(wb.worksheets.map((w) => w.name)).toEqual(['Overview', 'Payments', 'Ledger', 'Fees', 'Balances', 'Summary check', 'Bills', 'Fee rates', 'Exceptions', 'Open items', 'Checks', 'Fee charts', 'Definitions']);
    expect(wb.creator).toBe(`payexport ${toolInfo().version}`);
    // every zip entry carries the document date (the window's end), written in UTC — never "now"
    const entries = zipEntries(await readFile(join(dir, 'report.xlsx')));
    expect(new Set(entries.map((e) => e.modified))).toEqual(new Set(['2026-10-31T23:00:00']));
    expect(entries.map((e) => e.name)).toContain('docProps/core.xml');
    expect(wb.created.toISOString()).toBe('2026-10-31T23:00:00.000Z');
    const payments = wb.getWorksheet('Payments') as ExcelJS.Worksheet;
    expect(payments.views[0]).toMatchObject({ state: 'frozen', xSplit: 1, ySplit: 1 });
    expect(payments.autoFilter).toBe(`A1:AY${fixture.payments.length + 1}`);
    expect(payments.getRow(1).getCell(1).font?.bold).toBe(true);
    expect(payments.getColumn(1).width).toBeGreaterThanOrEqual(20);
  });

  it('writes amounts as numbers with currency formats, negatives as numbers, and > 15 digits as exact text', async () => {
    const wb = await readWorkbook(join(dir, 'report.xlsx'));
    const rows = sheetObjects(wb.getWorksheet('Payments') as ExcelJS.Worksheet);
    const [btc, huge, usd, asset] = rows as [Record<string, ExcelJS.Cell>, Record<string, ExcelJS.Cell>, Record<string, ExcelJS.Cell>, Record<string, ExcelJS.Cell>];
    // negative amounts in parentheses, as a statement prints them (a count keeps #,##0)
    expect([btc.principal_base?.value, btc.principal_base?.numFmt]).toEqual([150000000, '#,##0_);(#,##0)']);
    expect([btc.principal?.value, btc.principal?.numFmt]).toEqual([0.0015, '#,##0.00000000000_);(#,##0.00000000000)']);
    expect([usd.principal_base?.value, usd.principal?.value, usd.principal?.numFmt]).toEqual([-12345, -123.45, '#,##0.00_);(#,##0.00)']);
    expect([asset.principal?.value, asset.principal?.numFmt]).toEqual([12345.6789, '#,##0.0000_);(#,##0.0000)']);
    expect(huge.principal_base?.type).toBe(ExcelJS.ValueType.String);
    expect(huge.principal_base?.value).toBe(ALL_BITCOIN_MSATS.toString());
    // the display amount stays a number (it sums); the exact digits are in principal_base
    expect([huge.principal?.value, huge.principal?.numFmt]).toEqual([21000000, '#,##0.00000000000_);(#,##0.00000000000)']);
    expect(huge.principal_base?.note).toMatch(/15 significant digits/);
    expect(usd.rail_amount_base?.value).toBe(BEYOND_2_53.toString());
    expect(btc.created_at?.type).toBe(ExcelJS.ValueType.Date);
    expect(btc.created_at?.numFmt).toBe('yyyy-mm-dd hh:mm:ss');
    expect(btc.created_at_utc?.value).toBe('2026-10-01T04:00:00.123456Z');
  });

  it('replaces NUL visibly in the workbook while the CSV keeps it', async () => {
    const wb = await readWorkbook(join(dir, 'report.xlsx'));
    const usd = sheetObjects(wb.getWorksheet('Payments') as ExcelJS.Worksheet)[2] as Record<string, ExcelJS.Cell>;
    expect(usd.description?.value).toBe('nul\u2400inside and \u2407bell');
    const csv = (await readCsvObjects(join(dir, 'payments.csv')))[2] as Record<string, string>;
    expect(csv.description).toBe('nul\u0000inside and \u0007bell');
  });

  it('shows the checks that found something, control totals and the fees by who paid them on the Overview; every check on the Checks sheet', async () => {
    const wb = await readWorkbook(join(dir, 'report.xlsx'));
    const overview = wb.getWorksheet('Overview') as ExcelJS.Worksheet;
    const texts: string[] = [];
    overview.eachRow((row) => row.eachCell((cell) => texts.push(String(cell.value))));
    // the first line answers "does it tie?", the next whether the period is closed
    expect(String(overview.getCell('A2').value)).toMatch(/^Does not tie — \d+ errors?, \d+ warnings?, \d+ info$/);
    expect(String(overview.getCell('A3').value)).toMatch(/^Not closed by this run/);
    expect(texts).toContain('error');
    expect(texts).not.toContain('PASS');
    expect(texts).toContain('Fees: paid by the company and by its payers (completed payments; by wallet and rail: sheets Fees and Fee charts)');
    expect(texts).toContain('Roll-forward by currency (display units)');
    // no check id on the cover: the checks are named by what they check
    expect(texts.filter((t) => /^[a-z_]+\.(?!csv$)[a-z_]+$/.test(t))).toEqual([]);
    // amounts are numbers (21,000,000.0015 BTC: more than 15 digits, so Excel shows it rounded)
    expect(texts).toContain('21000000.0015');
    expect(texts).not.toContain('run-1');
    expect(texts.join(' ')).not.toMatch(/vltg_|pw@/);
    const checks = wb.getWorksheet('Checks') as ExcelJS.Worksheet;
    const listed: string[] = [];
    checks.eachRow((row, n) => {
      if (n > 3) listed.push(String(row.getCell(5).value));
    });
    const manifest = JSON.parse(await readFile(join(dir, 'manifest.json'), 'utf8')) as { checks: { check_id: string }[] };
    expect([...listed].sort()).toEqual(manifest.checks.map((c) => c.check_id).sort());
  });
});

describe('report folder: formula injection (SEC-05)', () => {
  it('neutralizes every payload in CSV and XLSX alike, and writes no formula cell', async () => {
    const csvRows = await readCsvObjects(join(dir, 'payments.csv'));
    const wb = await readWorkbook(join(dir, 'report.xlsx'));
    const xlsxRows = sheetObjects(wb.getWorksheet('Payments') as ExcelJS.Worksheet);
    HOSTILE_TEXTS.forEach((text, i) => {
      const csv = csvRows[4 + i] as Record<string, string>;
      const cell = xlsxRows[4 + i] as Record<string, ExcelJS.Cell>;
      expect(csv.description).toBe(neutralizeFormula(text));
      expect(csv.error_detail).toBe(neutralizeFormula(text));
      expect(cell.description?.value).toBe(xlsxText(neutralizeFormula(text)).text);
      expect(cell.description?.type).toBe(ExcelJS.ValueType.String);
    });
    wb.eachSheet((sheet) =>
      sheet.eachRow((row) =>
        row.eachCell((cell) => {
          expect(cell.type).not.toBe(ExcelJS.ValueType.Formula);
        }),
      ),
    );
  });

  it('keeps a negative amount numeric in CSV (no apostrophe)', async () => {
    const usd = (await readCsvObjects(join(dir, 'payments.csv')))[2] as Record<string, string>;
    expect([usd.principal_base, usd.principal, usd.total]).toEqual(['-12345', '-123.45', '-123.11']);
  });

  it('keeps > 2^53 amounts exact in CSV', async () => {
    const rows = await readCsvObjects(join(dir, 'payments.csv'));
    expect(rows[1]?.principal_base).toBe('2100000000000000000');
    expect(rows[2]?.rail_amount_base).toBe('9007199254740993');
  });
});

describe.skipIf(readersGap !== null)(`report folder: read by Python's csv and openpyxl${readersGap === null ? '' : ` — skipped: ${readersGap}`}`, () => {
  it('agrees with the manifest in every CSV and sheet (CRLF, BOM)', () => {
    checkFolderWithIndependentReaders(dir);
  });

  it('agrees with the manifest with LF records and no BOM', async () => {
    const lf = await writeSmallReport(join(root, 'lf-readers'), { csv: { bom: false, eol: 'lf' } });
    checkFolderWithIndependentReaders(lf.dir);
  });

  it('gives back every hostile text exactly, behind the documented apostrophe', () => {
    const { header, rows } = readCsvWithPython(join(dir, 'payments.csv'));
    const at = (name: string): number => header.indexOf(name);
    HOSTILE_TEXTS.forEach((text, i) => {
      const row = rows[4 + i] ?? [];
      expect([row[at('description')], row[at('error_detail')], JSON.parse(row[at('metadata')] ?? 'null')]).toEqual([neutralizeFormula(text), neutralizeFormula(text), { memo: text }]);
    });
  });
});

describe('report folder: manifest and verify', () => {
  it('records the run with contract fields, bigints as strings and no secrets', async () => {
    const text = await readFile(join(dir, 'manifest.json'), 'utf8');
    const m = JSON.parse(text) as Record<string, unknown>;
    for (const key of ['schema_version', 'run_id', 'command', 'window', 'counts', 'control_totals', 'checks', 'files']) expect(m).toHaveProperty(key);
    expect(m.window).toEqual({ from: '2026-09-30T22:00:00.000000Z', to: '2026-10-31T23:00:00.000000Z', tz: 'Europe/Berlin' });
    expect((m.control_totals as Record<string, Record<string, unknown>>).btc?.principal_base).toBe('2100000000150000000');
    expect(m.counts).toMatchObject({ payments: fixture.payments.length, api_requests: 12 });
    expect(m.csv).toEqual({ encoding: 'utf-8', bom: true, eol: 'crlf', delimiter: ',', quote: '"' });
    expect(text).not.toMatch(/vltg_secret|:pw@/);
    const files = m.files as { path: string; rows: number; bytes: number; sha256: string }[];
    expect(files.map((f) => f.path)).toEqual(['payments.csv', 'ledger.csv', 'fees.csv', 'balances.csv', 'summary-check.csv', 'bills.csv', 'fee-rates.csv', 'exceptions.csv', 'open-items.csv', 'report.xlsx', 'fees.html']);
    for (const f of files) {
      expect(f.sha256).toMatch(/^[0-9a-f]{64}$/);
      expect(f.bytes).toBe((await stat(join(dir, f.path))).size);
    }
  });

  it('verifies a fresh folder', async () => {
    expect(await verify(dir)).toMatchObject({ ok: true, files: 11, problems: [] });
  });

  it('reports every tampering: changed bytes, changed rows, a missing and an extra file', async () => {
    const copy = (await writeSmallReport(join(root, 'tamper'))).dir;
    const ledger = join(copy, 'ledger.csv');
    await writeFile(ledger, (await readFile(ledger, 'utf8')).replace('150376000', '150376001'));
    const fees = join(copy, 'fees.csv');
    const lines = (await readFile(fees, 'utf8')).split('\r\n');
    await writeFile(fees, [...lines.slice(0, -2), ''].join('\r\n'));
    await rm(join(copy, 'open-items.csv'));
    await writeFile(join(copy, 'notes.txt'), 'hi');
    const result = await verify(copy);
    expect(result.ok).toBe(false);
    const got = result.problems.map((p) => `${p.path}:${p.kind}`);
    expect(got).toEqual(expect.arrayContaining(['ledger.csv:sha256', 'fees.csv:bytes', 'fees.csv:sha256', 'fees.csv:rows', 'open-items.csv:missing', 'notes.txt:unexpected']));
    expect(got).not.toContain('ledger.csv:bytes');
  });

  it('reports a workbook whose sheet lost rows', async () => {
    const copy = (await writeSmallReport(join(root, 'tamper-xlsx'))).dir;
    const wb = await readWorkbook(join(copy, 'report.xlsx'));
    (wb.getWorksheet('Ledger') as ExcelJS.Worksheet).spliceRows(2, 1);
    await wb.xlsx.writeFile(join(copy, 'report.xlsx'));
    const got = (await verify(copy)).problems.map((p) => `${p.path}:${p.kind}:${p.message}`);
    expect(got).toEqual(expect.arrayContaining(['report.xlsx:rows:rows of sheet "Ledger" differ (header included)', 'report.xlsx:sha256:content differs (sha256)']));
  });

  it('names file and line of a bare LF outside quotes, even when bytes and sha256 match the manifest', async () => {
    // the file as payexport wrote it before the quoting fix: the memo "'<LF>=1" unquoted
    const copy = (await writeSmallReport(join(root, 'bare-lf'))).dir;
    const path = join(copy, 'payments.csv');
    const bytes = Buffer.from((await readFile(path, 'utf8')).replaceAll(`"'\n=1"`, `'\n=1`), 'utf8');
    await writeFile(path, bytes);
    const manifestPath = join(copy, 'manifest.json');
    const manifest = JSON.parse(await readFile(manifestPath, 'utf8')) as { files: { path: string; bytes: number; sha256: string }[] };
    const entry = manifest.files.find((f) => f.path === 'payments.csv') as { bytes: number; sha256: string };
    entry.bytes = bytes.length;
    entry.sha256 = createHash('sha256').update(bytes).digest('hex');
    await writeFile(manifestPath, JSON.stringify(manifest));
    const result = await verify(copy);
    expect(result.ok).toBe(false);
    expect(result.problems.map((p) => `${p.path}:${p.kind}:${p.message}`)).toEqual([
      'payments.csv:csv:line 12 (record 12): a bare LF outside quotes (records end with CRLF)',
      'payments.csv:csv:line 12 (record 12): 10 field(s) where the header has 51',
      'payments.csv:csv:line 13 (record 13): a bare LF outside quotes (records end with CRLF)',
      'payments.csv:csv:line 13 (record 13): 40 field(s) where the header has 51',
      'payments.csv:csv:line 14 (record 14): 3 field(s) where the header has 51',
      `payments.csv:rows:${fixture.payments.length + 2} data record(s) read strictly per RFC 4180 (records ending with CRLF), the manifest says ${fixture.payments.length}`,
    ]);
  });

  it("verifies an LF folder by its manifest's eol", async () => {
    const lf = await writeSmallReport(join(root, 'lf-verify'), { csv: { bom: false, eol: 'lf' } });
    expect(await verify(lf.dir)).toMatchObject({ ok: true, problems: [] });
  });

  it('reports an unreadable manifest', async () => {
    const copy = await mkdtemp(join(root, 'nomanifest-'));
    expect(await verify(copy)).toMatchObject({ ok: false, problems: [{ path: 'manifest.json', kind: 'manifest' }] });
  });
});

describe('report folder: determinism and publishing', () => {
  it('gives byte-identical files for the same input; manifests differ only in run id and times', async () => {
    let t = 0;
    const clock = (): Date => new Date(Date.UTC(2026, 10, 2, 0, 0, t++));
    const b = await writeSmallReport(join(root, 'b'), { runId: 'run-2', clock });
    for (const f of await readdir(dir)) {
      if (f === 'manifest.json') continue;
      expect((await readFile(join(dir, f))).equals(await readFile(join(b.dir, f))), f).toBe(true);
    }
    const one = JSON.parse(await readFile(join(dir, 'manifest.json'), 'utf8')) as Record<string, unknown>;
    const two = JSON.parse(await readFile(join(b.dir, 'manifest.json'), 'utf8')) as Record<string, unknown>;
    const strip = (m: Record<string, unknown>): Record<string, unknown> => ({ ...m, run_id: null, started_at: null, finished_at: null });
    expect(one.run_id).not.toBe(two.run_id);
    expect(strip(one)).toEqual(strip(two));
  });

  it('a CSV written ahead of its sheet (csvAhead) gives the same bytes and manifest, with a workbook or without', async () => {
    const ahead = await writeSmallReport(join(root, 'ahead'), {}, { ledgerAhead: true });
    for (const f of await readdir(dir)) expect((await readFile(join(dir, f))).equals(await readFile(join(ahead.dir, f))), f).toBe(true);
    const plain = await writeSmallReport(join(root, 'csv-only'), { formats: ['csv'] });
    const csvAhead = await writeSmallReport(join(root, 'csv-only-ahead'), { formats: ['csv'] }, { ledgerAhead: true });
    for (const f of await readdir(plain.dir)) expect((await readFile(join(plain.dir, f))).equals(await readFile(join(csvAhead.dir, f))), f).toBe(true);
    expect(csvAhead.manifest.files.find((file) => file.path === 'ledger.csv')?.rows).toBe(fixture.ledger.length);
  });

  it('refuses a sheet whose rows differ from the CSV written ahead, and a CSV ahead whose table never came', async () => {
    const f = smallFixture();
    const folder = await openReportFolder(fixtureOptions(join(root, 'ahead-bad')));
    const ledgerCsv = folder.csvAhead(LEDGER_TABLE);
    await ledgerCsv.writeAll(f.ledger);
    await ledgerCsv.close();
    const sheet = await folder.table(LEDGER_TABLE);
    await sheet.writeAll(f.ledger.slice(1));
    await expect(sheet.close()).rejects.toThrow(/row\(s\) in the sheet/);
    await folder.abort();

    const other = await openReportFolder(fixtureOptions(join(root, 'ahead-missing')));
    const early = other.csvAhead(LEDGER_TABLE);
    await early.close();
    await expect(other.publish({ parameters: {}, controlTotals: f.controlTotals, checks: f.checks })).rejects.toThrow(/written ahead but the table was not written/);
    await other.abort();
    expect(await readdir(join(root, 'ahead-missing', 'month-end')).catch(() => [])).toEqual([]);
  });

  it('replaces an open period in place, and never overwrites a closed one', async () => {
    const out = join(root, 'closed');
    const first = await writeSmallReport(out);
    await writeFile(join(first.dir, 'marker'), 'x');
    const again = await writeSmallReport(out, { runId: 'run-2' });
    expect(again.dir).toBe(first.dir);
    expect(await readdir(again.dir)).not.toContain('marker');

    const f = smallFixture();
    const folder = await openReportFolder(fixtureOptions(out, { runId: 'run-3', closed: true }));
    expect(folder.folderName).toBe('2026-10.amended-1');
    const payments = await folder.table(PAYMENTS_TABLE);
    await payments.writeAll([...f.payments, paymentRow({ payment_id: '99999999-0000-4000-8000-000000000001', description: 'late refund' })]);
    await payments.close();
    const amended = await folder.publish({ parameters: {}, controlTotals: f.controlTotals, checks: f.checks });
    expect(amended).toMatchObject({ dir: join(out, 'month-end', '2026-10.amended-1'), unchanged: false });
    expect(amended.manifest).toMatchObject({ folder: '2026-10.amended-1', amendment: 1 });
    expect((await readCsv(join(first.dir, 'payments.csv'))).rows).toHaveLength(f.payments.length);
    expect((await verify(first.dir)).ok).toBe(true);
  });

  it('writes nothing for a closed period whose files did not change', async () => {
    const out = join(root, 'unchanged');
    const first = await writeSmallReport(out);
    const rerun = await writeSmallReport(out, { runId: 'run-2', closed: true });
    expect(rerun).toMatchObject({ dir: first.dir, unchanged: true });
    expect((await readdir(join(out, 'month-end'))).sort()).toEqual(['2026-10']);
  });

  it('leaves nothing behind on abort', async () => {
    const out = join(root, 'abort');
    const folder = await openReportFolder(fixtureOptions(out));
    const payments = await folder.table(PAYMENTS_TABLE);
    await payments.writeAll(smallFixture().payments);
    await folder.abort();
    expect(await readdir(join(out, 'month-end'))).toEqual([]);
  });

  it('removes a stale temp folder of a dead run and restores an interrupted swap', async () => {
    const out = join(root, 'stale');
    const jobDir = join(out, 'month-end');
    await mkdir(join(jobDir, '.2026-10.tmp-dead'), { recursive: true });
    await writeFile(join(jobDir, '.2026-10.tmp-dead', '.owner'), JSON.stringify({ pid: 2 ** 22 + 1, host: (await import('node:os')).hostname() }));
    await writeFile(join(jobDir, '.2026-10.tmp-dead', 'payments.csv'), 'partial');
    await mkdir(join(jobDir, '.2026-09.old-dead'));
    await writeFile(join(jobDir, '.2026-09.old-dead', '.owner'), JSON.stringify({ pid: 2 ** 22 + 1, host: (await import('node:os')).hostname() }));
    await writeFile(join(jobDir, '.2026-09.old-dead', 'payments.csv'), 'previous');
    await writeSmallReport(out);
    expect((await readdir(jobDir)).sort()).toEqual(['2026-09', '2026-10']);
    expect(await readFile(join(jobDir, '2026-09', 'payments.csv'), 'utf8')).toBe('previous');
  });

  it('refuses path traversal with a usage error (64)', async () => {
    expect((await errorOf(openReportFolder(fixtureOptions(root, { period: '../../etc' })))).exitCode).toBe(64);
    expect((await errorOf(openReportFolder(fixtureOptions(root, { job: '..' })))).exitCode).toBe(64);
    expect((await errorOf(openReportFolder(fixtureOptions(root, { runId: 'a/b' })))).exitCode).toBe(64);
  });

  it('fails with cantCreate (74) when the output root cannot be written', async () => {
    const file = join(root, 'not-a-dir');
    await writeFile(file, 'x');
    const error = await errorOf(openReportFolder(fixtureOptions(file)));
    expect([error.exitCode, error.type]).toEqual([74, 'output_not_writable']);
    if (process.getuid?.() !== 0) {
      const ro = join(root, 'read-only');
      await mkdir(ro);
      await chmod(ro, 0o500);
      expect((await errorOf(openReportFolder(fixtureOptions(ro)))).exitCode).toBe(74);
    }
  });

  it('writes LF without a BOM when asked, and csv-only or xlsx-only folders', async () => {
    const lf = await writeSmallReport(join(root, 'lf'), { csv: { bom: false, eol: 'lf' }, formats: ['csv'] });
    const raw = await readFile(join(lf.dir, 'ledger.csv'));
    expect(raw[0]).toBe('e'.charCodeAt(0));
    expect(raw.includes('\r\n')).toBe(false);
    expect(await readdir(lf.dir)).not.toContain('report.xlsx');
    expect(lf.manifest.csv).toMatchObject({ bom: false, eol: 'lf' });
    const xlsx = await writeSmallReport(join(root, 'xlsx-only'), { formats: ['xlsx'] });
    expect((await readdir(xlsx.dir)).sort()).toEqual(['fees.html', 'manifest.json', 'report.xlsx']);
    expect((await verify(xlsx.dir)).ok).toBe(true);
  });

  it('keeps one table open at a time', async () => {
    const folder = await openReportFolder(fixtureOptions(join(root, 'seq')));
    await folder.table(PAYMENTS_TABLE);
    await expect(folder.table(PAYMENTS_TABLE)).rejects.toThrow(/still open/);
    await folder.abort();
  });
});
