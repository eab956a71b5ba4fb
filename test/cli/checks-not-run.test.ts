import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, describeRun, runCli } from '../support/cli/cli.js';
import { startTestSim, type TestSim } from '../support/cli/sim.js';
import { workspace } from '../support/cli/workspace.js';
import { readCsvWithPython, readersMissing, readXlsxWithOpenpyxl } from '../support/readers/readers.js';

/**
 * A check that did not run is never shown as passed (issue 51): the simulator's bills start in
 * 2026, so a month-end of January 2025 ties no bill, and a nightly of 20 November 2026 lies inside
 * no issued bill's period. The terminal, the Overview and Checks sheets (openpyxl), exceptions.csv (Python's csv)
 * and manifest.json each say "not run" with the reason; a month-end adds the close's warning for
 * the required ones and still closes the month.
 */

const ws = workspace('not-run');
let sim: TestSim;
let env: Record<string, string>;
const missing = readersMissing('both');

const NO_BILL = 'no bill of the service overlaps this window';
/** the bill checks that tie a bill (bill-checks.ts BILL_TIE_CHECKS), and the required ones among them */
const TIE = ['bill.line_amounts', 'bill.line_counts', 'bill.line_processing_fees', 'bill.line_activity', 'bill.starting_balance', 'bill.line_item_missing', 'bill.internal_totals', 'bill.not_recomputable'];
const REQUIRED = ['bill.line_amounts', 'bill.line_counts', 'bill.line_processing_fees', 'bill.starting_balance', 'bill.line_item_missing', 'bill.internal_totals'];

beforeAll(async () => {
  assertBuilt();
  sim = await startTestSim();
  env = sim.env({ keyOf: 1 });
});

afterAll(async () => {
  await sim?.close();
  ws.remove();
});

interface ManifestCheck {
  check_id: string;
  outcome: string;
  passed: boolean;
  skipped_reason: string | null;
}

/** exceptions.csv read by Python's csv module, as records */
function exceptions(dir: string): Array<Record<string, string>> {
  const { header, rows } = readCsvWithPython(join(dir, 'exceptions.csv'));
  return rows.map((row) => Object.fromEntries(header.map((h, i) => [h, row[i] ?? ''])));
}

/** a sheet's rows as text, by openpyxl: the Overview, or Checks (what it checks, result, findings, severity, id) */
function sheetRows(dir: string, name: string): string[][] {
  const sheet = readXlsxWithOpenpyxl(join(dir, 'report.xlsx'), { cells: true, sheets: [name] }).find((s) => s.name === name);
  return (sheet?.rows ?? []).map((row) => row.map((cell) => (cell.v === null ? '' : String(cell.v))));
}
const overview = (dir: string): string[][] => sheetRows(dir, 'Overview');
/** the Checks sheet's rows keyed by check id (its last column) */
const checksSheet = (dir: string): Map<string, string[]> => new Map(sheetRows(dir, 'Checks').map((row) => [row[4] ?? '', row]));

describe.skipIf(missing !== null)(`checks that did not run${missing === null ? '' : ` (skipped: ${missing})`}`, () => {
  it('month-end of a month no bill covers: not run on the terminal, the Overview and exceptions.csv; the required ones warn, the month closes', { timeout: 180_000 }, async () => {
    const cwd = ws.fresh('month-end');
    const args = ['month-end', '--month', '2025-01', '--no-db'];
    const result = await runCli(args, { cwd, env });
    expect(result.code, describeRun(args, result)).toBe(0);
    const out = result.stdout;
    expect(out).toMatch(/^checks {4}\d+: \d+ passed, 2 with findings, 8 not run$/m);
    expect(out).toContain(`  not run   ${TIE.join(', ')}: ${NO_BILL}`);
    expect(out).toContain('tie-out   Ties out — 0 errors, 6 warnings, 2 info; 8 checks not run: bill.line_amounts, bill.line_counts and 6 more');
    expect(out).toContain('period    Closed: 2025-01 is recorded as closed');
    expect(out).not.toContain('every reconciliation check passed');

    const dir = join(cwd, 'reports/month-end/2025-01');
    const rows = exceptions(dir).filter((r) => r['subject_kind'] === 'check');
    expect(rows.map((r) => [r['subject_id'], r['check_id'], r['severity']]).sort()).toEqual(
      TIE.map((id) => (REQUIRED.includes(id) ? [id, 'close.required_check_not_run', 'warning'] : [id, 'check.not_run', 'info'])).sort(),
    );
    for (const r of rows) expect(r['message']).toMatch(new RegExp(`^not run: ${NO_BILL}`));
    expect(rows.find((r) => r['subject_id'] === 'bill.line_counts')?.['message']).toContain('bill.line_counts is required to close 2025-01: a warning, not an error — it does not keep the period open');

    const sheet = overview(dir);
    // the cover in words: how many could not run, never their ids (the manifest and the terminal name them)
    expect(sheet[1]?.[0]).toBe('Ties out — 0 errors, 6 warnings, 2 info; 8 checks could not run');
    expect(sheet.flat().filter((cell) => typeof cell === 'string' && /\b(bill|summary|payment|close|check)\.(?!csv\b)[a-z_]+\b/.test(cell))).toEqual([]);
    expect(sheet.some((row) => row[0] === '8 checks could not run: each by what it checks, with its reason, under Checks below, and a row each on the Exceptions sheet.')).toBe(true);
    // the Overview names them by what they check, each "not run"; the Checks sheet by id too
    expect(sheet.filter((row) => row[7] === 'not run')).toHaveLength(TIE.length);
    const checks = checksSheet(dir);
    const result_of = (id: string): string | undefined => checks.get(id)?.[1];
    for (const id of TIE) expect(result_of(id), id).toBe('NOT RUN');
    expect(checks.get('bill.line_counts')?.[0]).toMatch(new RegExp(`— not run: ${NO_BILL}$`));
    expect(result_of('close.required_check_not_run')).toBe('WARN');
    expect(result_of('check.not_run')).toBe('NOTE');
    expect(result_of('payment.ledger_match')).toBe('PASS');

    const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as { checks: ManifestCheck[]; tie_out: { not_run: string[] }; close: { state: string } };
    for (const id of TIE) expect(manifest.checks.find((c) => c.check_id === id), id).toMatchObject({ outcome: 'not_run', passed: false, skipped_reason: NO_BILL });
    expect(manifest.checks.find((c) => c.check_id === 'payment.ledger_match')).toMatchObject({ outcome: 'passed', passed: true });
    expect(manifest.tie_out.not_run).toEqual(TIE);
    expect(manifest.close.state).toBe('closed');
  });

  it('a nightly that ties no bill: an info row per check not run, no close warning', { timeout: 180_000 }, async () => {
    const cwd = ws.fresh('nightly');
    const args = ['nightly', '--date', '2026-11-20', '--no-db'];
    const result = await runCli(args, { cwd, env });
    expect(result.code, describeRun(args, result)).toBe(0);
    expect(result.stdout).toContain(`  not run   ${TIE.join(', ')}: ${NO_BILL}`);
    expect(result.stdout).toContain('8 checks not run: bill.line_amounts, bill.line_counts and 6 more');
    const dir = join(cwd, 'reports/nightly/2026-11-20');
    const rows = exceptions(dir).filter((r) => r['subject_kind'] === 'check');
    expect(rows.map((r) => [r['check_id'], r['severity'], r['subject_id'], r['message']])).toEqual([...TIE].sort().map((id) => ['check.not_run', 'info', id, `not run: ${NO_BILL}`]));
    const checks = checksSheet(dir);
    expect(checks.has('close.required_check_not_run')).toBe(false);
    for (const id of TIE) expect(checks.get(id)?.[1], id).toBe('NOT RUN');
  });
});
