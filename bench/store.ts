/**
 * Snapshot load benchmark (not a test): `npx tsx bench/store.ts [rows]`.
 *
 * Real server (DATABASE_URL, default postgres://postgres@127.0.0.1:5432/test), in one run:
 *   - plain COPY of the rows into a table with the payments columns and key (the ceiling),
 *   - the snapshot writer: pages of 1000 and of 100 (COPY → staging → upsert + history + checkpoint),
 *   - a re-load of the same pages (nothing changes), a load where every payment changed,
 *   - the no-COPY fallback (unnest batches of 1000).
 * Embedded engine (a child process each, for a clean RSS): startup fresh in memory, fresh on a
 * folder, reopening the folder, and the same 100k load through COPY FROM '/dev/blob'.
 * Results: stdout and bench/out/store.json. Options: a row count, `--server-only`, `--embedded-only`.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PAYMENT_COLUMNS, type PaymentRow } from '../src/model/rows.js';
import { columnKinds, columnNames, encodeRow, SQL_TYPE } from '../src/store/encoding/columns.js';
import { copyLine } from '../src/store/encoding/copy-text.js';
import type { Db } from '../src/store/db/db.js';
import { openPostgres } from '../src/store/db/pg-db.js';
import { openEmbedded } from '../src/store/db/pglite-db.js';
import type { Checkpoint } from '../src/model/ports.js';
import { quoteIdent } from '../src/store/db/schema.js';
import { databaseSnapshot, type DatabaseSnapshot } from '../src/store/database-snapshot.js';
import { ORG, payment } from './payment-rows.js';

const ROWS = Number((process.argv[2] === '--embedded' ? process.argv[5] : process.argv.slice(2).find((arg) => /^\d+$/.test(arg))) ?? 100_000) || 100_000;
/** `--server-only` / `--embedded-only` run half of the benchmark. */
/** `--light`: the COPY ceiling, pages of 1000, two concurrent streams; none of the other scenarios. */
const LIGHT = process.argv.includes('--light');
const ONLY = process.argv.includes('--server-only') ? 'server' : process.argv.includes('--embedded-only') ? 'embedded' : null;
function checkpoint(page: number, rows: number): Checkpoint {
  return { run_key: 'bench', stream: 'payments:bench', position: JSON.stringify({ page }), pages: page, rows, done: false };
}

interface Timing {
  seconds: number;
  rowsPerSecond: number;
}

async function timed(rows: number, fn: () => Promise<void>): Promise<Timing> {
  const start = process.hrtime.bigint();
  await fn();
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  return { seconds: Math.round(seconds * 1000) / 1000, rowsPerSecond: Math.round(rows / seconds) };
}

async function loadPages(store: DatabaseSnapshot, rows: readonly PaymentRow[], pageRows: number): Promise<Timing> {
  const writer = store.writer();
  await writer.beginRun({ run_id: `bench-${randomBytes(4).toString('hex')}`, run_key: 'bench', command: 'bench', organization_id: ORG, window: null, parameters: {}, started_at: '2026-11-22T00:00:00.000000Z' });
  return timed(rows.length, async () => {
    for (let start = 0, page = 1; start < rows.length; start += pageRows, page++) {
      await writer.writePaymentsPage(rows.slice(start, start + pageRows), checkpoint(page, start + pageRows));
    }
  });
}

/** `streams` writers in parallel, each loading its share of the pages (the job loads wallets concurrently). */
async function loadConcurrently(store: DatabaseSnapshot, rows: readonly PaymentRow[], pageRows: number, streams: number): Promise<Timing> {
  const shares = Array.from({ length: streams }, (_, stream) => rows.filter((_, index) => Math.floor(index / pageRows) % streams === stream));
  const writers = await Promise.all(
    shares.map(async (_, stream) => {
      const writer = store.writer();
      await writer.beginRun({ run_id: `bench-${stream}-${randomBytes(4).toString('hex')}`, run_key: `bench-${stream}`, command: 'bench', organization_id: ORG, window: null, parameters: {}, started_at: '2026-11-22T00:00:00.000000Z' });
      return writer;
    }),
  );
  return timed(rows.length, async () => {
    await Promise.all(
      shares.map(async (share, stream) => {
        for (let start = 0, page = 1; start < share.length; start += pageRows, page++) {
          await writers[stream]?.writePaymentsPage(share.slice(start, start + pageRows), { ...checkpoint(page, start + pageRows), run_key: `bench-${stream}` });
        }
      }),
    );
  });
}

async function resetPayments(db: Db, store: DatabaseSnapshot): Promise<void> {
  await db.query(`TRUNCATE ${store.schema.table('payments')}, ${store.schema.table('payment_history')}, ${store.schema.table('checkpoints')}`);
  await db.query(`VACUUM ANALYZE ${store.schema.table('payments')}`).catch(() => undefined);
}

function withoutCopy(db: Db): Db {
  return { ...db, copyFrom: undefined, transaction: (fn, options) => db.transaction((tx) => fn({ query: tx.query.bind(tx), execScript: tx.execScript.bind(tx) }), options) };
}

export async function serverBench(url: string, rows: PaymentRow[]): Promise<Record<string, unknown>> {
  const db = await openPostgres({ url });
  const schemaName = `bench_store_${randomBytes(3).toString('hex')}`;
  const store = databaseSnapshot(db, { schema: schemaName });
  await store.migrate();
  try {
    const plain = store.schema.table('plain_copy');
    const columns = columnKinds(PAYMENT_COLUMNS).map(([name, kind]) => `${quoteIdent(name)} ${SQL_TYPE[kind]}`);
    await db.query(`CREATE TABLE ${plain} (${columns.join(', ')}, PRIMARY KEY (organization_id, payment_id))`);
    const names = columnNames(PAYMENT_COLUMNS);
    // 10k-row chunks: 1M rows of ~1.6 KB are more than one JS string may hold (512 MB)
    let text: string[] = [];
    const encode = await timed(rows.length, async () => {
      for (let start = 0; start < rows.length; start += 10_000) text.push(rows.slice(start, start + 10_000).map((row) => copyLine(encodeRow(PAYMENT_COLUMNS, row))).join(''));
    });
    const copyOnly = await timed(rows.length, async () => {
      await db.transaction(async (tx) => {
        await tx.copyFrom?.(plain, names, text);
      });
    });
    const copyWithEncode: Timing = { seconds: encode.seconds + copyOnly.seconds, rowsPerSecond: Math.round(rows.length / (encode.seconds + copyOnly.seconds)) };
    text = [];
    await db.query(`TRUNCATE ${plain}`);
    // The same COPY, but one transaction per 1000-row page, encoding included: plain COPY paged like the API.
    const pagedCopy = await timed(rows.length, async () => {
      for (let start = 0; start < rows.length; start += 1000) {
        const page = rows.slice(start, start + 1000);
        await db.transaction(async (tx) => {
          await tx.copyFrom?.(plain, names, [page.map((row) => copyLine(encodeRow(PAYMENT_COLUMNS, row))).join('')]);
        });
      }
    });

    await resetPayments(db, store);
    const page1000 = await loadPages(store, rows, 1000);
    if (LIGHT) {
      // bench/run.ts: the ceiling and the job's two ways of loading, nothing else (1M rows take minutes each)
      await resetPayments(db, store);
      const concurrent = await loadConcurrently(store, rows, 1000, 2);
      return {
        rows: rows.length,
        plain_copy_with_encode: copyWithEncode,
        plain_copy_paged_1000_with_encode: pagedCopy,
        snapshot_page_1000: page1000,
        snapshot_page_1000_2_streams: concurrent,
        snapshot_page_1000_vs_copy_with_encode: Math.round((page1000.rowsPerSecond / copyWithEncode.rowsPerSecond) * 100) / 100,
      };
    }
    const reload1000 = await loadPages(store, rows, 1000);
    const changed = rows.map((row) => ({ ...row, status: 'failed', status_class: 'failed' as const, updated_at: '2026-11-20T00:00:00.000000Z' }));
    const update1000 = await loadPages(store, changed, 1000);
    await resetPayments(db, store);
    const page100 = await loadPages(store, rows, 100);
    await resetPayments(db, store);
    const concurrent2 = await loadConcurrently(store, rows, 1000, 2);
    await resetPayments(db, store);
    const fallbackStore = databaseSnapshot(withoutCopy(db), { schema: schemaName });
    const fallback1000 = await loadPages(fallbackStore, rows, 1000);
    const { rows: [sizes] } = await db.query<{ payments: string; history: string }>(
      `SELECT pg_size_pretty(pg_total_relation_size('${store.schema.table('payments')}')) AS payments, pg_size_pretty(pg_total_relation_size('${store.schema.table('payment_history')}')) AS history`,
    );
    const { rows: [version] } = await db.query<{ v: string }>("SELECT current_setting('server_version') AS v");
    return {
      server: version?.v,
      rows: rows.length,
      encode_only: encode,
      plain_copy_only: copyOnly,
      plain_copy_with_encode: copyWithEncode,
      plain_copy_paged_1000_with_encode: pagedCopy,
      snapshot_page_1000: page1000,
      snapshot_page_1000_vs_paged_copy: Math.round((page1000.rowsPerSecond / pagedCopy.rowsPerSecond) * 100) / 100,
      snapshot_page_1000_2_streams: concurrent2,
      snapshot_2_streams_vs_copy_with_encode: Math.round((concurrent2.rowsPerSecond / copyWithEncode.rowsPerSecond) * 100) / 100,
      snapshot_page_1000_vs_copy_with_encode: Math.round((page1000.rowsPerSecond / copyWithEncode.rowsPerSecond) * 100) / 100,
      snapshot_page_1000_vs_copy_only: Math.round((page1000.rowsPerSecond / copyOnly.rowsPerSecond) * 100) / 100,
      reload_unchanged_page_1000: reload1000,
      all_changed_page_1000: update1000,
      snapshot_page_100: page100,
      fallback_unnest_page_1000: fallback1000,
      table_sizes: sizes,
    };
  } finally {
    await db.query(`DROP SCHEMA ${store.schema.quoted} CASCADE`);
    await db.close();
  }
}

/** Child-process part: one embedded scenario, printed as JSON on the last line. */
async function embeddedChild(scenario: string, dir: string): Promise<void> {
  const rssBefore = process.memoryUsage().rss;
  const start = process.hrtime.bigint();
  const db = await openEmbedded({ dataDir: scenario === 'memory' ? null : dir });
  const startupSeconds = Number(process.hrtime.bigint() - start) / 1e9;
  const rssAfterStart = process.memoryUsage().rss;
  const result: Record<string, unknown> = { scenario, startup_s: Math.round(startupSeconds * 100) / 100, rss_before_mb: rssBefore >> 20, rss_after_start_mb: rssAfterStart >> 20 };
  const store = databaseSnapshot(db);
  await store.migrate();
  if (scenario !== 'reopen') {
    const rows = Array.from({ length: ROWS }, (_, index) => payment(index));
    result.load_page_1000 = await loadPages(store, rows, 1000);
    result.reload_unchanged_page_1000 = await loadPages(store, rows, 1000);
  }
  await db.close();
  result.peak_rss_mb = Math.round(process.resourceUsage().maxRSS / 1024);
  console.log(JSON.stringify(result));
}

function runChild(scenario: string, dir: string): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), '--embedded', scenario, dir, String(ROWS)], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('exit', (code) => {
      const last = out.trim().split('\n').at(-1) ?? '';
      if (code === 0) resolve(JSON.parse(last) as Record<string, unknown>);
      else reject(new Error(`embedded ${scenario} exited ${code}: ${out}`));
    });
  });
}

async function main(): Promise<void> {
  if (process.argv[2] === '--embedded') {
    await embeddedChild(process.argv[3] ?? 'memory', process.argv[4] ?? '');
    return;
  }
  const url = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  console.log(`generating ${ROWS} payments…`);
  const rows = Array.from({ length: ROWS }, (_, index) => payment(index));
  const results: Record<string, unknown> = { rows: ROWS, node: process.version, cpus: os.cpus().length };
  if (ONLY !== 'embedded') {
    console.log('real server…');
    results.server = await serverBench(url, rows);
    console.log(JSON.stringify(results.server, null, 2));
  }
  if (ONLY === 'server') {
    // the last line, for bench/run.ts
    console.log(JSON.stringify(results.server));
    return;
  }

  const dir = mkdtempSync(path.join(os.tmpdir(), 'payexport-bench-'));
  try {
    const embedded: Record<string, unknown>[] = [];
    for (const scenario of ['memory', 'fresh-dir', 'reopen']) {
      console.log(`embedded ${scenario}…`);
      const result = await runChild(scenario, dir);
      console.log(JSON.stringify(result));
      embedded.push(result);
    }
    results.embedded = embedded;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const out = fileURLToPath(new URL('./out/', import.meta.url));
  mkdirSync(out, { recursive: true });
  writeFileSync(path.join(out, 'store.json'), JSON.stringify(results, null, 2) + '\n');
  console.log(`written ${path.join(out, 'store.json')}`);
}

if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
