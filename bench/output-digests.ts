/**
 * The bytes the export writes for the bench's datasets, pinned (issue 41, target 5): every speed
 * change must leave each CSV and the workbook byte-identical. The built CLI exports the bench's
 * simulator data (`sim --profile stress`, the bench's seed and window, bench/e2e/export-run.ts) at
 * sizes small enough for a test, on each snapshot kind, and the sha256 of every CSV and XLSX file
 * is compared with bench/output-digests.json (the workbook is deterministic: fixed zip times).
 *
 *   node --import tsx bench/output-digests.ts           compare (exit 1 on a difference)
 *   node --import tsx bench/output-digests.ts --write   record today's bytes (only from a tree
 *                                                       whose output is known good, e.g. main)
 *
 * test/integration/pipeline/output-digests.test.ts runs the comparison in `npm test`.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { runExport } from './e2e/export-run.js';
import { ROOT } from './e2e/sim-child.js';

export type SnapshotKind = 'spool' | 'server' | 'embedded';

/** The bench's seed (bench/run.ts `--seed`), its two wallet shapes (issue 8's and issue 29's), small. */
export const DIGEST_DATASETS = [
  { payments: 3000, wallets: 20, seed: 11 },
  { payments: 5000, wallets: 200, seed: 11 },
] as const;

export const DIGESTS_FILE = path.join(ROOT, 'bench/output-digests.json');

export type DigestBook = Record<string, Record<string, string>>;

export function datasetKey(d: { payments: number; wallets: number; seed: number }, kind: SnapshotKind): string {
  return `${d.payments}p-${d.wallets}w-seed${d.seed}-${kind}`;
}

/** sha256 of every CSV and XLSX of one export, by file name. */
export async function exportDigests(d: { payments: number; wallets: number; seed: number }, kind: SnapshotKind, databaseUrl: string | undefined): Promise<Record<string, string>> {
  if (kind === 'server' && databaseUrl === undefined) throw new Error('the server kind needs DATABASE_URL');
  const run = await runExport({
    ...d,
    concurrency: 8,
    databaseUrl: kind === 'server' ? (databaseUrl as string) : null,
    ...(kind === 'spool' ? { extraArgs: ['--no-db'] } : {}),
  });
  return run.outputHashes;
}

export function readDigestBook(): DigestBook {
  return JSON.parse(readFileSync(DIGESTS_FILE, 'utf8')) as DigestBook;
}

async function main(): Promise<void> {
  const write = process.argv.includes('--write');
  const databaseUrl = process.env.DATABASE_URL;
  const kinds: SnapshotKind[] = databaseUrl ? ['spool', 'server', 'embedded'] : ['spool', 'embedded'];
  const book: DigestBook = write ? {} : readDigestBook();
  let differ = 0;
  for (const d of DIGEST_DATASETS) {
    for (const kind of kinds) {
      const key = datasetKey(d, kind);
      const got = await exportDigests(d, kind, databaseUrl);
      if (write) book[key] = got;
      else {
        const want = book[key] ?? {};
        const files = [...new Set([...Object.keys(want), ...Object.keys(got)])].sort();
        const bad = files.filter((f) => want[f] !== got[f]);
        differ += bad.length;
        process.stderr.write(`${key}: ${bad.length === 0 ? `${files.length} files identical` : `DIFFER ${bad.join(', ')}`}\n`);
      }
    }
  }
  if (write) writeFileSync(DIGESTS_FILE, `${JSON.stringify(book, null, 2)}\n`);
  if (differ > 0) process.exitCode = 1;
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
