/**
 * `payexport verify DIR`: re-checks a report folder against its manifest.json — every listed
 * file exists, has the recorded size and sha256, and the recorded number of rows (CSV re-read
 * strictly per RFC 4180 by strict-csv-scanner.ts, which names the line of a bare CR or LF outside
 * quotes and of a record with the wrong number of fields; XLSX re-read with exceljs's streaming
 * reader, sheet by sheet); files the manifest does not list are reported too.
 * Every mismatch is reported, not just the first. The CLI exits non-zero unless `ok`.
 *
 * Note: exceljs's reader parks each worksheet's XML in a temp file when the workbook has no
 * shared strings (ours never does), so verifying a very large workbook needs temp disk space of
 * about its uncompressed size.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import ExcelJS from 'exceljs';
import { SIGNATURE_FILE } from '../audit/manifest-signature.js';
import { MANIFEST_FILE, type Manifest, type ManifestFile } from './manifest.js';
import { scanCsvFile } from './strict-csv-scanner.js';

export type VerifyProblemKind = 'manifest' | 'missing' | 'unexpected' | 'bytes' | 'sha256' | 'rows' | 'csv' | 'sheets' | 'unreadable';

export interface VerifyProblem {
  path: string;
  kind: VerifyProblemKind;
  message: string;
  expected?: string | number;
  actual?: string | number;
}

export interface VerifyResult {
  ok: boolean;
  dir: string;
  run_id: string | null;
  /** files listed in the manifest */
  files: number;
  problems: VerifyProblem[];
}

const PLAIN_FILE_NAME = /^[A-Za-z0-9_-][A-Za-z0-9._-]*$/;

export async function verify(dir: string): Promise<VerifyResult> {
  const problems: VerifyProblem[] = [];
  let manifest: Manifest;
  try {
    manifest = parseManifest(await readFile(join(dir, MANIFEST_FILE), 'utf8'));
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { ok: false, dir, run_id: null, files: 0, problems: [{ path: MANIFEST_FILE, kind: 'manifest', message: `cannot read the manifest: ${message}` }] };
  }

  for (const file of manifest.files) {
    if (!PLAIN_FILE_NAME.test(file.path)) {
      problems.push({ path: file.path, kind: 'manifest', message: 'the manifest lists a path outside the folder' });
      continue;
    }
    // a manifest written before it recorded the CSV options: CRLF, the default then as now
    problems.push(...(await verifyFile(dir, file, manifest.csv?.eol ?? 'crlf')));
  }

  // the signature cannot list itself: it is the one file beside manifest.json the manifest names only by its note
  const listed = new Set([MANIFEST_FILE, ...(manifest.signature === undefined ? [] : [SIGNATURE_FILE]), ...manifest.files.map((f) => f.path)]);
  for (const entry of (await readdir(dir)).sort()) {
    if (!listed.has(entry)) problems.push({ path: entry, kind: 'unexpected', message: 'not listed in the manifest' });
  }
  return { ok: problems.length === 0, dir, run_id: manifest.run_id, files: manifest.files.length, problems };
}

function parseManifest(text: string): Manifest {
  const value = JSON.parse(text) as Partial<Manifest>;
  if (typeof value !== 'object' || value === null || !Array.isArray(value.files)) throw new Error('no files list');
  for (const f of value.files as unknown[]) {
    const file = f as Partial<ManifestFile>;
    if (typeof file.path !== 'string' || typeof file.rows !== 'number' || typeof file.bytes !== 'number' || typeof file.sha256 !== 'string') {
      throw new Error('a files entry lacks path, rows, bytes or sha256');
    }
  }
  return value as Manifest;
}

async function verifyFile(dir: string, file: ManifestFile, eol: 'crlf' | 'lf'): Promise<VerifyProblem[]> {
  const path = join(dir, file.path);
  const info = await stat(path).catch(() => null);
  if (info === null || !info.isFile()) return [{ path: file.path, kind: 'missing', message: 'listed in the manifest but not in the folder' }];
  const problems: VerifyProblem[] = [];
  if (info.size !== file.bytes) problems.push({ path: file.path, kind: 'bytes', message: 'size differs', expected: file.bytes, actual: info.size });
  const sha256 = await hashFile(path);
  if (sha256 !== file.sha256) problems.push({ path: file.path, kind: 'sha256', message: 'content differs (sha256)', expected: file.sha256, actual: sha256 });
  try {
    if (file.path.endsWith('.csv')) {
      problems.push(...(await verifyCsv(path, file, eol)));
    } else if (file.path.endsWith('.xlsx')) {
      problems.push(...(await verifyWorkbook(path, file)));
    }
  } catch (error) {
    problems.push({ path: file.path, kind: 'unreadable', message: error instanceof Error ? error.message : String(error) });
  }
  return problems;
}

async function hashFile(path: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(createReadStream(path), hash);
  return hash.digest('hex');
}

/**
 * The CSV read strictly (RFC 4180, records ending only with the manifest's `eol`), as Excel or
 * Python would split it: each malformed spot by line, then the record count against the manifest.
 */
async function verifyCsv(path: string, file: ManifestFile, eol: 'crlf' | 'lf'): Promise<VerifyProblem[]> {
  const scan = await scanCsvFile(path, { eol });
  const problems: VerifyProblem[] = scan.issues.map((issue) => ({ path: file.path, kind: 'csv', message: `line ${issue.line} (record ${issue.record}): ${issue.message}` }));
  const more = scan.issueCount - scan.issues.length;
  if (more > 0) problems.push({ path: file.path, kind: 'csv', message: `${more} more problem(s) of the same kind not listed` });
  if (scan.records !== file.rows) problems.push({ path: file.path, kind: 'rows', message: `${scan.records} data record(s) read strictly per RFC 4180 (records ending with ${eol.toUpperCase()}), the manifest says ${file.rows}`, expected: file.rows, actual: scan.records });
  return problems;
}

interface ReaderInternals {
  model?: { sheets?: { name: string; rId: string }[] };
  workbookRels?: { Id: string; Target: string }[];
}

async function verifyWorkbook(path: string, file: ManifestFile): Promise<VerifyProblem[]> {
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(path, { worksheets: 'emit', sharedStrings: 'cache', hyperlinks: 'ignore', styles: 'ignore', entries: 'ignore' });
  const rowsBySheetNo = new Map<string, number>();
  for await (const sheet of reader) {
    let rows = 0;
    for await (const _row of sheet) rows += 1;
    rowsBySheetNo.set(String((sheet as unknown as { id: string | number }).id), rows);
  }
  // sheet names: workbook.xml (name, rId) → workbook.xml.rels (rId → worksheets/sheetN.xml)
  const internals = reader as unknown as ReaderInternals;
  const rowsByName = new Map<string, number>();
  for (const s of internals.model?.sheets ?? []) {
    const target = internals.workbookRels?.find((r) => r.Id === s.rId)?.Target ?? '';
    const n = /sheet(\d+)\.xml$/.exec(target)?.[1];
    if (n !== undefined) rowsByName.set(s.name, rowsBySheetNo.get(n) ?? 0);
  }
  const problems: VerifyProblem[] = [];
  let dataRows = 0;
  for (const expected of file.sheets ?? []) {
    const actual = rowsByName.get(expected.name);
    if (actual === undefined) {
      problems.push({ path: file.path, kind: 'sheets', message: `sheet "${expected.name}" is missing` });
      continue;
    }
    dataRows += Math.max(0, actual - 1);
    if (actual !== expected.rows) problems.push({ path: file.path, kind: 'rows', message: `rows of sheet "${expected.name}" differ (header included)`, expected: expected.rows, actual });
  }
  if (dataRows !== file.rows) problems.push({ path: file.path, kind: 'rows', message: 'data rows of the table sheets differ', expected: file.rows, actual: dataRows });
  return problems;
}
