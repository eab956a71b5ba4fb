import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FORMULA_TRIGGER_CHARS } from '../../src/sinks/cells.js';
import { assertBuilt, describeRun, runCli } from '../support/cli/cli.js';
import { startTestSim, type TestSim } from '../support/cli/sim.js';
import { workspace } from '../support/cli/workspace.js';
import { checkFolderWithIndependentReaders } from '../support/readers/folder-check.js';
import { readCsvWithPython, readersMissing } from '../support/readers/readers.js';

/**
 * A run against the simulator with its hostile text (formula payloads, CR and LF inside memos,
 * NUL, quotes, full-width look-alikes): every CSV read by Python's csv module and the workbook by
 * openpyxl agree with the manifest, with either `csv.eol`; and every memo reaches payments.csv
 * exactly as the payer wrote it (behind the documented `'` when it begins with a trigger).
 */

const reason = readersMissing('both');
const ws = workspace('independent-readers');
const FROM = '2026-10-01';
const TO = '2026-10-31';
const TRIGGERS: ReadonlySet<string> = new Set(FORMULA_TRIGGER_CHARS);
let sim: TestSim;
/** the published folders, by eol, for the verify case below */
const folders = new Map<string, string>();

beforeAll(async () => {
  assertBuilt();
  // seed 8: its October holds a memo with a bare LF and one with a bare CR (3 % of memos are hostile)
  sim = await startTestSim({ seed: 8, from: FROM, to: '2026-11-01' });
});

afterAll(async () => {
  await sim?.close();
  ws.remove();
});

function meant(text: string): string {
  return text.length > 0 && TRIGGERS.has(text[0] as string) ? `'${text}` : text;
}

/** The memo the simulator holds for a payment (what normalization reads as `description`). */
function memoOf(id: string): string | null {
  const data = (sim.sim.dataset.getPayment(id) as { data?: Record<string, unknown> }).data ?? {};
  return [data['memo'], data['description'], data['label']].find((v): v is string => typeof v === 'string') ?? null;
}

describe.skipIf(reason !== null)(`hostile text read by Python's csv and openpyxl${reason === null ? '' : ` — skipped: ${reason}`}`, () => {
  it.each([
    ['crlf', true],
    ['lf', false],
  ] as const)('export with csv eol %s (bom %s): every file agrees with the manifest, every memo intact', async (eol, bom) => {
    const cwd = ws.fresh(`hostile-${eol}`);
    writeFileSync(join(cwd, 'csv.json'), JSON.stringify({ csv: { eol, bom } }));
    const args = ['export', '--from', FROM, '--to', TO, '--no-db', '--config', 'csv.json'];
    const result = await runCli(args, { cwd, env: sim.env('token') });
    expect(result.code, describeRun(args, result)).toBe(0);
    const dir = join(cwd, 'reports/export', `${FROM}_${TO}`);

    checkFolderWithIndependentReaders(dir);
    folders.set(eol, dir);

    const { header, rows } = readCsvWithPython(join(dir, 'payments.csv'));
    const id = header.indexOf('payment_id');
    const description = header.indexOf('description');
    const breaks = { lf: 0, cr: 0 };
    for (const row of rows) {
      const memo = memoOf(row[id] as string);
      expect(row[description], `description of ${row[id]}`).toBe(memo === null ? '' : meant(memo));
      if (memo !== null && /(?<!\r)\n/.test(memo)) breaks.lf++;
      if (memo !== null && /\r(?!\n)/.test(memo)) breaks.cr++;
    }
    expect(breaks.lf > 0 && breaks.cr > 0, `memos with a bare LF and with a bare CR in the window: ${JSON.stringify(breaks)}`).toBe(true);
  });

  it('payexport verify accepts both folders, and names file and line of a memo written unquoted (as before the quoting rule)', async () => {
    expect([...folders.keys()].sort(), 'the exports above published their folders').toEqual(['crlf', 'lf']);
    for (const dir of folders.values()) {
      const ok = await runCli(['verify', dir], { cwd: ws.root, env: {} });
      expect(ok.code, describeRun(['verify', dir], ok)).toBe(0);
    }
    // the CRLF folder as an older payexport wrote it: every quoted field without a comma or quote
    // but with a line break goes out bare, and the manifest is made to match the new bytes
    const dir = folders.get('crlf') as string;
    const path = join(dir, 'payments.csv');
    const bytes = Buffer.from(readFileSync(path, 'utf8').replace(/"([^",]*[\r\n][^",]*)"/g, '$1'), 'utf8');
    writeFileSync(path, bytes);
    const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as { files: { path: string; rows: number; bytes: number; sha256: string }[] };
    const entry = manifest.files.find((f) => f.path === 'payments.csv') as { rows: number; bytes: number; sha256: string };
    Object.assign(entry, { bytes: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') });
    writeFileSync(join(dir, 'manifest.json'), JSON.stringify(manifest));
    const args = ['verify', dir];
    const result = await runCli(args, { cwd: ws.root, env: {} });
    expect(result.code, describeRun(args, result)).toBe(65);
    expect(result.stdout, describeRun(args, result)).toMatch(/^MISMATCH csv: payments\.csv: line \d+ \(record \d+\): a bare (LF|CR) outside quotes \(records end with CRLF\)$/m);
    const counted = /^MISMATCH rows: payments\.csv: (\d+) data record\(s\) read strictly per RFC 4180 \(records ending with CRLF\), the manifest says (\d+)$/m.exec(result.stdout);
    expect(counted?.slice(1).map(Number), describeRun(args, result)).toEqual([expect.any(Number), entry.rows]);
    expect(Number(counted?.[1])).toBeGreaterThan(entry.rows);
  });
});
