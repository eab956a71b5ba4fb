/**
 * The `cores` section of `npm run bench` (issue 21, targets 2 and 3): this checkout's export
 * against a baseline commit's, on the same data, in turn, with 50 ms added to every request.
 *
 *   target 2  e2e wall ≤ 0.4 × the baseline's, and the same bytes in every CSV and XLSX (sha256)
 *   target 3  e2e wall ≤ 1.25 × max(latency floor, CPU floor ÷ cores)
 *
 * The baseline is built in a git worktree of its own (`git worktree add --detach`, node_modules
 * hard-linked from this checkout, `npm run build`) unless `--baseline-dir` already holds a build.
 * Each run gets a fresh simulator child with the same seed, so neither run finds the other's
 * warm caches. The latency floor is requests × latency ÷ concurrency, requests counted by the job's
 * manifest. The CPU floor is what the bare libraries need for the same volume, measured in this
 * run: JSON.parse of the served bytes (a realistic ~1.5 kB payment item, times the items pulled),
 * csv-stringify and bare exceljs streaming (bench/sinks.ts, payments rows, scaled to the rows the
 * report wrote) and plain `COPY` with encoding (bench/store.ts --light, scaled to the rows pulled).
 * The bare sink timings include generating their rows, so the floor errs on the generous side.
 *
 * Alone: `npm run bench -- --sizes 100000 --only cores [--baseline-ref <sha>] [--baseline-dir <dir>]`.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runExport, type ExportRunResult } from './e2e/export-run.js';
import { ROOT } from './e2e/sim-child.js';
import { measureSinks } from './sinks.js';

export interface CoresOptions {
  payments: number;
  wallets: number;
  seed: number;
  concurrency: number;
  latencyMs: number;
  databaseUrl: string;
  /** a commit-ish of this repository: "today's main" */
  baselineRef: string;
  /** where the baseline is (or gets) built */
  baselineDir?: string;
}

export interface CoresResult {
  baselineCommit: string;
  commit: string;
  latencyMs: number;
  baseline: ExportRunResult;
  current: ExportRunResult;
  /** current wall ÷ baseline wall (target 2: ≤ 0.4) */
  wallRatio: number;
  sameBytes: boolean;
  differingFiles: string[];
  floors: {
    latencySeconds: number;
    cpuSeconds: number;
    cores: number;
    parts: { jsonParse: number; csvStringify: number; exceljs: number; copy: number };
  };
  /** current wall ÷ max(latency floor, CPU floor ÷ cores) (target 3: ≤ 1.25) */
  efficiencyRatio: number;
}

export async function runCoresBench(options: CoresOptions): Promise<CoresResult> {
  const baselineCommit = git(ROOT, 'rev-parse', options.baselineRef);
  const commit = git(ROOT, 'rev-parse', 'HEAD');
  const baselineRoot = prepareBaseline(baselineCommit, options.baselineDir ?? path.join(os.tmpdir(), `payexport-bench-base-${baselineCommit.slice(0, 12)}`));
  const run = (root: string): Promise<ExportRunResult> =>
    runExport({ payments: options.payments, wallets: options.wallets, seed: options.seed, databaseUrl: options.databaseUrl, concurrency: options.concurrency, latencyMs: options.latencyMs, root });
  log(`  baseline ${baselineCommit.slice(0, 12)} (${baselineRoot})`);
  const baseline = await run(baselineRoot);
  log(`  baseline: ${baseline.wallSeconds} s, job CPU ${baseline.cpuSeconds.job} s, peak RSS ${baseline.peakRssMb} MB, stages ${JSON.stringify(baseline.phases)}`);
  const current = await run(ROOT);
  log(`  this checkout: ${current.wallSeconds} s, job CPU ${current.cpuSeconds.job} s, peak RSS ${current.peakRssMb} MB, stages ${JSON.stringify(current.phases)}`);

  const files = [...new Set([...Object.keys(baseline.outputHashes), ...Object.keys(current.outputHashes)])].sort();
  const differingFiles = files.filter((f) => baseline.outputHashes[f] === undefined || baseline.outputHashes[f] !== current.outputHashes[f]);

  const floors = await measureFloors(options, current);
  const cpuBound = floors.cpuSeconds / floors.cores;
  return {
    baselineCommit,
    commit,
    latencyMs: options.latencyMs,
    baseline,
    current,
    wallRatio: round2(current.wallSeconds / baseline.wallSeconds),
    sameBytes: differingFiles.length === 0 && files.length > 0,
    differingFiles,
    floors,
    efficiencyRatio: round2(current.wallSeconds / Math.max(floors.latencySeconds, cpuBound)),
  };
}

/** The latency floor (requests the run made) and the CPU floor of the bare libraries for the run's rows; also used by bench/export-pairs.ts. */
export async function measureFloors(options: Pick<CoresOptions, 'payments' | 'latencyMs' | 'concurrency' | 'databaseUrl'>, current: ExportRunResult): Promise<CoresResult['floors']> {
  const cores = os.cpus().length;
  const latencySeconds = (current.apiRequests * options.latencyMs) / options.concurrency / 1000;
  const reportRows = Object.entries(current.rowsWritten)
    .filter(([file]) => file.endsWith('.csv'))
    .reduce((n, [, rows]) => n + rows, 0);
  const sinks = await measureSinks([options.payments], ['csv-bare', 'xlsx-bare'], 1);
  const perRow = (variant: string): number => {
    const r = sinks.find((s) => s.variant === variant);
    if (r === undefined) throw new Error(`bench/sinks.ts gave no ${variant} result`);
    return r.ms / 1000 / r.rows;
  };
  const copy = JSON.parse(
    execFileSync(process.execPath, ['--max-old-space-size=12000', '--import', 'tsx', path.join(ROOT, 'bench/store.ts'), String(options.payments), '--server-only', '--light'], { encoding: 'utf8', maxBuffer: 1 << 26, env: { ...process.env, DATABASE_URL: options.databaseUrl } })
      .trim()
      .split('\n')
      .at(-1) as string,
  ) as { plain_copy_with_encode?: { rowsPerSecond: number } };
  const copyRate = copy.plain_copy_with_encode?.rowsPerSecond;
  if (copyRate === undefined) throw new Error('bench/store.ts gave no plain COPY rate');
  const parts = {
    jsonParse: round1(current.rowsPulled * jsonParseSecondsPerItem()),
    csvStringify: round1(reportRows * perRow('csv-bare')),
    exceljs: round1(reportRows * perRow('xlsx-bare')),
    copy: round1(current.rowsPulled / copyRate),
  };
  return { latencySeconds: round1(latencySeconds), cpuSeconds: round1(parts.jsonParse + parts.csvStringify + parts.exceljs + parts.copy), cores, parts };
}

/** JSON.parse of 100-item pages of a realistic payment item (~1.5 kB), best of three. */
function jsonParseSecondsPerItem(): number {
  const item = JSON.stringify({
    id: '5f0c2a8e-1b3d-4c5e-8f70-1a2b3c4d5e6f',
    organization_id: '0b6c0d5e-0000-4000-8000-000000000001',
    environment_id: '0b6c0d5e-0000-4000-8000-000000000003',
    wallet_id: '0b6c0d5e-0000-4000-8000-000000000004',
    created_at: '2026-10-12T21:22:50.302190Z',
    updated_at: '2026-10-12T21:23:03.173159Z',
    currency: 'btc',
    direction: 'send',
    type: 'onchain',
    status: 'completed',
    payment_category: 'standard',
    route: 'swap',
    error: null,
    exchanges: [],
    metadata: { external_id: 'ord_4411', tenant: 'acme' },
    payment_breakdown: { network_fee: { amount: 150000, currency: 'btc', unit: 'msats' }, principal: { amount: 150000000, currency: 'btc', unit: 'msats' }, processing_fee: { amount: 100000, currency: 'btc', unit: 'msats' } },
    processing_fee: { basis_points: 25, amount: { amount: 100000, currency: 'btc', unit: 'msats' } },
    data: {
      address: 'tb1pzkhtj4ld86g9c49du5yagnncfrm0s489t76vmrwmt2ecxfnf7spsvjte49',
      amount: { amount: 150000000, currency: 'btc', unit: 'msats' },
      amount_sats: 150000,
      fee_sats: 250,
      label: 'invoice 4411 for order 441144',
      max_fee: { amount: 1000000, currency: 'btc', unit: 'msats' },
      outflows: [{ type: 'swap', data: { rail: 'onchain', step: 'target_claimed', receipt: { type: 'onchain', data: { amount_sats: 150000, height_mined_at: 1888021, is_pending: false, ledger_id: '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d', mined_at: 1739395372, tx_id: 'a'.repeat(64) } } } }],
    },
  });
  const page = `{"items": [${Array.from({ length: 100 }, () => item).join(', ')}], "next_cursor": "abc", "has_more": true}`;
  let best = Infinity;
  for (let round = 0; round < 3; round++) {
    const start = performance.now();
    for (let i = 0; i < 200; i++) JSON.parse(page);
    best = Math.min(best, (performance.now() - start) / 1000 / 20_000);
  }
  return best;
}

/** The baseline's built CLI: an existing build, or a fresh worktree at the commit, built; also used by bench/export-pairs.ts. */
export function prepareBaseline(commit: string, dir: string): string {
  if (existsSync(path.join(dir, 'dist/cli/main.js'))) {
    const at = git(dir, 'rev-parse', 'HEAD');
    if (at !== commit) throw new Error(`--baseline-dir ${dir} is at ${at}, not ${commit}`);
    return dir;
  }
  if (!existsSync(dir)) git(ROOT, 'worktree', 'add', '--detach', dir, commit);
  // the same dependency tree, hard-linked: no registry access, and the lockfiles are expected to agree
  if (!existsSync(path.join(dir, 'node_modules'))) execFileSync('cp', ['-al', path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules')]);
  log(`  building the baseline in ${dir}`);
  execFileSync('npm', ['run', '-s', 'build'], { cwd: dir, stdio: ['ignore', 'ignore', 'inherit'] });
  return dir;
}

export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-C', cwd, ...args], { encoding: 'utf8' }).trim();
}

const round1 = (x: number): number => Math.round(x * 10) / 10;
const round2 = (x: number): number => Math.round(x * 100) / 100;
function log(line: string): void {
  process.stderr.write(`${line}\n`);
}
