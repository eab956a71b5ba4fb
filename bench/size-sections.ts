/** The sections of `npm run bench` that run at every size (bench/run.ts): each fills its part of the size's result. */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import type { BenchOptions } from './bench-options.js';
import { runCoresBench } from './cores.js';
import { runExport } from './e2e/export-run.js';
import { ROOT } from './e2e/sim-child.js';
import { runExtractionBench } from './extract.js';
import { loadNow } from './machine.js';
import { measureSinks } from './sinks.js';
import type { SizeResult } from './types.js';

type Log = (line: string) => void;
const round2 = (x: number): number => Math.round(x * 100) / 100;

export async function e2eSection(r: SizeResult, o: BenchOptions, log: Log): Promise<void> {
  log(`[${r.payments}] e2e export → CSV + XLSX + Postgres`);
  const prof = o.values['cpu-prof'];
  r.e2e = await runExport({ payments: r.payments, wallets: o.wallets, seed: o.seed, databaseUrl: o.databaseUrl, concurrency: o.concurrency, ...(prof ? { cpuProfDir: path.resolve(prof) } : {}) });
  log(`  ${r.e2e.wallSeconds} s, peak RSS ${r.e2e.peakRssMb} MB, exit ${r.e2e.exitCode}, stages ${JSON.stringify(r.e2e.phases)}, cpu ${JSON.stringify(r.e2e.cpuSeconds)}`);
}

export async function extractSection(r: SizeResult, o: BenchOptions, log: Log): Promise<void> {
  const store = o.values['extract-store'];
  log(`[${r.payments}] extraction with ${o.latencyMs} ms latency, concurrency ${o.concurrency}, store ${store}`);
  if (store === 'postgres') process.env.DATABASE_URL = o.databaseUrl;
  const ex = await runExtractionBench({
    payments: r.payments,
    wallets: o.wallets,
    seed: o.seed,
    latencyMs: o.latencyMs,
    concurrency: o.concurrency,
    pageSize: 100,
    store: store as 'postgres' | 'memory' | 'spool',
    repeat: 1,
    // the warm-up pull doubles the time; the simulator's first-use index build is small next to 50 ms a request
    warmup: r.payments <= 100_000,
  });
  r.extract = { ...ex.median, store };
  log(`  ${r.extract.wallMs} ms / floor ${r.extract.floorMs} ms = ${r.extract.ratio} (${r.extract.requests} requests)`);
}

export async function writersSection(r: SizeResult, variants: string[], log: Log): Promise<void> {
  log(`[${r.payments}] writers: ${variants.join(', ')}`);
  const sinks = await measureSinks([r.payments], variants, 1);
  const pair = (kind: 'csv' | 'xlsx') => {
    const ours = sinks.find((s) => s.variant === `${kind}-ours`);
    const bare = sinks.find((s) => s.variant === `${kind}-bare`);
    return ours && bare ? { ours, bare, ratio: round2(bare.ms / ours.ms) } : undefined;
  };
  const csv = pair('csv');
  const xlsx = pair('xlsx');
  if (csv) r.csv = csv;
  if (xlsx) r.xlsx = xlsx;
}

export async function loadSection(r: SizeResult, o: BenchOptions, log: Log): Promise<void> {
  log(`[${r.payments}] snapshot load vs plain COPY`);
  const detail = JSON.parse(
    execFileSync(process.execPath, ['--max-old-space-size=12000', '--import', 'tsx', path.join(ROOT, 'bench/store.ts'), String(r.payments), '--server-only', '--light'], { encoding: 'utf8', maxBuffer: 1 << 26, env: { ...process.env, DATABASE_URL: o.databaseUrl } })
      .trim()
      .split('\n')
      .at(-1) as string,
  ) as Record<string, { rowsPerSecond: number }>;
  // the headline is one stream of 1000-row pages against one COPY: like with like (the job runs several streams; see detail)
  const snapshot = detail.snapshot_page_1000?.rowsPerSecond ?? 0;
  const copy = detail.plain_copy_with_encode?.rowsPerSecond ?? 1;
  r.load = { snapshotRowsPerSecond: snapshot, copyRowsPerSecond: copy, ratio: round2(snapshot / copy), detail };
  log(`  snapshot ${snapshot} rows/s vs COPY ${copy} rows/s = ${r.load.ratio}`);
}

export async function embeddedSection(r: SizeResult, o: BenchOptions, log: Log): Promise<void> {
  const run = { payments: r.payments, wallets: o.wallets, seed: o.seed, concurrency: o.concurrency, latencyMs: o.latencyMs };
  log(`[${r.payments}] export on the Postgres server, then on the embedded engine (new data folder), ${run.latencyMs} ms latency`);
  const server = await runExport({ ...run, databaseUrl: o.databaseUrl });
  log(`  server: ${server.wallSeconds} s, peak RSS ${server.peakRssMb} MB, load ${loadNow()}`);
  const embedded = await runExport({ ...run, databaseUrl: null });
  log(`  embedded: ${embedded.wallSeconds} s, peak RSS ${embedded.peakRssMb} MB, load ${loadNow()}`);
  r.embedded = { server, embedded, wallRatio: round2(embedded.wallSeconds / server.wallSeconds), latencyMs: run.latencyMs };
}

export async function coresSection(r: SizeResult, o: BenchOptions, log: Log): Promise<void> {
  log(`[${r.payments}] cores: this checkout against ${o.values['baseline-ref']}, ${o.latencyMs} ms latency`);
  const dir = o.values['baseline-dir'];
  r.cores = await runCoresBench({
    payments: r.payments,
    wallets: o.wallets,
    seed: o.seed,
    concurrency: o.concurrency,
    latencyMs: o.latencyMs,
    databaseUrl: o.databaseUrl,
    baselineRef: o.values['baseline-ref'],
    ...(dir ? { baselineDir: path.resolve(dir) } : {}),
  });
  const c = r.cores;
  log(`  wall ${c.current.wallSeconds} s vs ${c.baseline.wallSeconds} s = ${c.wallRatio}; same bytes: ${c.sameBytes}; floors: latency ${c.floors.latencySeconds} s, CPU ${c.floors.cpuSeconds} s / ${c.floors.cores} cores ${JSON.stringify(c.floors.parts)}; efficiency ${c.efficiencyRatio}`);
}
