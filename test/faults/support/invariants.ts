/**
 * The oracle every fault case asserts (docs/reliability.md#the-oracle):
 *
 *   I1/I2  the ids a report lists equal the simulator's ground truth for the window — none lost,
 *          none doubled (and the same for the Postgres snapshot);
 *   I4     no partial folder: nothing but published folders under `<out>/<job>/` (no `.tmp-`/`.old-`),
 *          each file as its manifest.json says (bytes and sha256, and every CSV's records as
 *          Python's csv module reads them), and a previous good report byte for byte as it was;
 *   I5     a resumed run's CSV and XLSX equal an uninterrupted run's, byte for byte;
 *   I6/I7  the exit code, ONE plain stderr line on failure (none for 0/65), run ids on every JSON
 *          log line, and no planted secret in any byte of output, files or database.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { expect } from 'vitest';
import type { Dataset } from '../../../src/sim/index.js';
import { independentReaderProblems } from '../../support/readers/folder-check.js';
import { readersMissing } from '../../support/readers/readers.js';

/** The files the byte-identity promise covers (docs/reliability.md#the-oracle; manifest.json describes the run and differs). */
export const REPORT_FILES = ['payments.csv', 'ledger.csv', 'fees.csv', 'balances.csv', 'summary-check.csv', 'bills.csv', 'fee-rates.csv', 'exceptions.csv', 'open-items.csv', 'report.xlsx'] as const;

// I6/I7 live with the CLI test support, shared with test/cli/exit-codes.test.ts.
export { expectExit, type ExitExpectation } from '../../support/cli/exit-contract.js';

/** Every file of a folder, by name (recursively, `a/b` names). */
export function folderBytes(dir: string): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  const walk = (at: string, prefix: string): void => {
    for (const entry of readdirSync(at, { withFileTypes: true })) {
      const path = join(at, entry.name);
      if (entry.isDirectory()) walk(path, `${prefix}${entry.name}/`);
      else out.set(`${prefix}${entry.name}`, readFileSync(path));
    }
  };
  walk(dir, '');
  return out;
}

/** I4: a folder is byte for byte what it was (a previous good report after a failed run). */
export function expectFolderUnchanged(dir: string, before: ReadonlyMap<string, Buffer>, label: string): void {
  expect(existsSync(dir), `${label}: ${dir} is gone`).toBe(true);
  const after = folderBytes(dir);
  expect([...after.keys()].sort(), label).toEqual([...before.keys()].sort());
  for (const [name, bytes] of before) expect(after.get(name)?.equals(bytes), `${label}: ${name} changed`).toBe(true);
}

/**
 * I4: under `<out>/<job>/` only published folders (no temporary or set-aside ones), each holding
 * every contract file and a manifest that lists exactly the files present. Returns their names.
 */
export function expectNoPartialFolders(outRoot: string, job: string): string[] {
  const jobDir = join(outRoot, job);
  if (!existsSync(jobDir)) return [];
  const entries = readdirSync(jobDir);
  expect(entries.filter((e) => e.startsWith('.')), `leftovers in ${jobDir}`).toEqual([]);
  for (const entry of entries) {
    const dir = join(jobDir, entry);
    expect(statSync(dir).isDirectory(), `${dir} is a folder`).toBe(true);
    const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as { files: Array<{ path: string; bytes: number; sha256: string }>; signature?: { file: string } };
    for (const file of manifest.files) {
      const bytes = readFileSync(join(dir, file.path));
      expect({ bytes: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') }, `${entry}/${file.path} against manifest.json`).toEqual({ bytes: file.bytes, sha256: file.sha256 });
    }
    expect(readdirSync(dir).sort(), `${dir} holds exactly its manifest's files`).toEqual([...manifest.files.map((f) => f.path), 'manifest.json', ...(manifest.signature ? [manifest.signature.file] : [])].sort());
    expectReadByIndependentReaders(dir);
  }
  return entries;
}

let readerGapReported = false;
/** sha256 of every workbook openpyxl has already read in this file's runs */
const workbooksRead = new Set<string>();

/**
 * I4, read by software that did not write it: Python's csv module finds the manifest's record
 * count, the spec's header and full-width records in every CSV, and openpyxl reads every distinct
 * workbook (by its manifest sha256: most published folders of the suite are byte-identical to the
 * reference run, and loading the same workbook whole again per folder would dominate its time).
 */
export function expectReadByIndependentReaders(dir: string): void {
  const gap = readersMissing('both');
  if (gap !== null) {
    if (!readerGapReported) console.warn(`fault suite: files not read by Python's csv / openpyxl — ${gap}`);
    readerGapReported = true;
    return;
  }
  const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as { files: Array<{ path: string; sha256: string }> };
  const workbook = manifest.files.find((f) => f.path.endsWith('.xlsx'));
  const readWorkbook = workbook !== undefined && !workbooksRead.has(workbook.sha256);
  expect(independentReaderProblems(dir, { xlsx: readWorkbook }), `${dir} read by Python's csv module${readWorkbook ? ' and openpyxl' : ''}`).toEqual([]);
  if (readWorkbook) workbooksRead.add(workbook.sha256);
}

/** I5: the report files of two folders are identical. */
export function expectSameReport(actualDir: string, expectedDir: string, label: string): void {
  for (const file of REPORT_FILES) {
    const expected = join(expectedDir, file);
    if (!existsSync(expected)) continue;
    expect(readFileSync(join(actualDir, file)).equals(readFileSync(expected)), `${label}: ${file} differs from the uninterrupted run's`).toBe(true);
  }
}

export function csvRecords(path: string): Array<Record<string, string>> {
  return parse(readFileSync(path, 'utf8'), { columns: true, bom: true }) as Array<Record<string, string>>;
}

/** Payment ids the simulator created in [from, to) (UTC dates, `to` exclusive), sorted. */
export function truthPaymentIds(ds: Dataset, from: string, toExclusive: string): string[] {
  const last = new Date(Date.parse(`${toExclusive}T00:00:00Z`) - 1).toISOString().replace('Z', '999Z');
  return ds.paymentIds({ from: `${from}T00:00:00Z`, to: last }).sort();
}

export interface IdComparison {
  lost: string[];
  doubled: string[];
  extra: string[];
}

export function compareIds(listed: readonly string[], truth: readonly string[]): IdComparison {
  const seen = new Set<string>();
  const doubled: string[] = [];
  for (const id of listed) {
    if (seen.has(id)) doubled.push(id);
    seen.add(id);
  }
  const expected = new Set(truth);
  return { lost: truth.filter((id) => !seen.has(id)), doubled, extra: [...seen].filter((id) => !expected.has(id)) };
}

/** I1/I2 on a report folder's payments.csv. */
export function expectPaymentsComplete(dir: string, truth: readonly string[], label: string): void {
  const ids = csvRecords(join(dir, 'payments.csv')).map((r) => r['payment_id'] ?? '');
  expect(compareIds(ids, truth), `${label}: payments.csv against the simulator's ground truth`).toEqual({ lost: [], doubled: [], extra: [] });
}
