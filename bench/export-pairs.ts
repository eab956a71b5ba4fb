/**
 * The `issue29` section of `npm run bench` (docs/benchmarks.md "Issue 29"): each pair runs back
 * to back on the same data (a fresh simulator child with the same seed for each run), so only
 * ratios within the pair are compared, never absolute times across runs on this shared machine.
 *
 *   round trips  `export` on the Postgres server with pages of 100 (`--page-size 100`, the pull's
 *                page until issue 29), then with the default (ask 1000; the simulator grants 500),
 *                50 ms latency: requests made, wall, same CSV + XLSX bytes, and the API floor
 *                (bench/api-floor.ts) beside the request count
 *   reads        `export` on the Postgres server at `--page-size 1000`, per-wallet payments reads forced
 *                (`paymentsRead: "wallet"`), then the default (environments read whole when that takes
 *                fewer requests): requests, peak RSS, wall, same CSV + XLSX bytes
 *   behind       target 1: `export` on the Postgres server by the last commit whose report started
 *                after the pull (AFTER_PULL_REF, built in its own worktree), then by this checkout,
 *                50 ms latency: the report stage left after the pull, wall, job CPU, same bytes
 *   naive        `export --no-db` (CSV + XLSX, the default page), then the naive exporter (bench/naive-exporter.ts),
 *                50 ms latency: wall and peak RSS ratios (target 4: ≥ 10 × faster, ≤ 1/10 memory)
 *
 * Alone: `npm run bench -- --sizes 100000 --wallets 200 --only issue29`.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DEFAULT_MAX_PAGE_SIZE } from '../src/sim/start-simulator.js';
import { apiFloor, type ApiFloor } from './api-floor.js';
import { git, measureFloors, prepareBaseline } from './cores.js';
import { runExport, WINDOW, type ExportRunResult } from './e2e/export-run.js';
import { launcherEnv } from './e2e/launcher-env.js';
import { ROOT, startSimChild, stopChild } from './e2e/sim-child.js';

export interface ExportPairsOptions {
  payments: number;
  wallets: number;
  seed: number;
  concurrency: number;
  latencyMs: number;
  databaseUrl: string;
  /** which pairs to run */
  pairs: ReadonlySet<'roundtrips' | 'naive' | 'efficiency' | 'reads' | 'behind'>;
  log: (line: string) => void;
}

export interface NaiveRun {
  wallSeconds: number;
  peakRssMb: number;
  cpuSeconds: number;
  requests: number;
}

/** The last commit of main whose report stage started when the pull had ended (target 1's "before"). */
export const AFTER_PULL_REF = '70821ba';

export interface ExportPairsResult {
  latencyMs: number;
  /** target 1: the same export by AFTER_PULL_REF and by this checkout, back to back */
  behind?: { afterPullCommit: string; before: ExportRunResult & { load: string }; after: ExportRunResult & { load: string }; sameBytes: boolean; differingFiles: string[] };
  roundTrips?: {
    before: ExportRunResult & { floor: ApiFloor; load: string };
    after: ExportRunResult & { floor: ApiFloor; load: string };
    sameBytes: boolean;
    differingFiles: string[];
  };
  /** the environment-level payments read against per-wallet reads forced, both at the largest page */
  reads?: {
    perWallet: ExportRunResult & { floor: ApiFloor; load: string };
    whole: ExportRunResult & { floor: ApiFloor; load: string };
    sameBytes: boolean;
    differingFiles: string[];
  };
  /** target 3 for the negotiated run: wall ÷ max(API floor, CPU floor ÷ cores) */
  efficiency?: { apiFloorSeconds: number; cpuSeconds: number; cores: number; parts: Record<string, number>; wallSeconds: number; ratio: number };
  naive?: { payexport: ExportRunResult & { load: string }; naive: NaiveRun & { load: string }; speedRatio: number; memoryRatio: number };
}

const loadNow = (): string => os.loadavg().map((x) => x.toFixed(2)).join(' ');

export async function runExportPairs(options: ExportPairsOptions): Promise<ExportPairsResult> {
  const result: ExportPairsResult = { latencyMs: options.latencyMs };
  const base = { payments: options.payments, wallets: options.wallets, seed: options.seed, concurrency: options.concurrency, latencyMs: options.latencyMs };
  const work = mkdtempSync(path.join(os.tmpdir(), 'payexport-bench-29-'));
  // an export against its own simulator child, its requests counted against the API floor
  const floorOf = (requestLog: string): ApiFloor =>
    apiFloor({
      requestLog,
      ...base,
      from: `${WINDOW.from}T00:00:00Z`,
      to: `${WINDOW.to}T23:59:59.999999Z`,
      grantedPageSize: DEFAULT_MAX_PAGE_SIZE,
    });
  const run = async (label: string, extraArgs: string[]) => {
    const requestLog = path.join(work, `${label}.jsonl`);
    const load = loadNow();
    const r = await runExport({ ...base, databaseUrl: options.databaseUrl, extraArgs, requestLog });
    const floor = floorOf(requestLog);
    options.log(`  ${label}: ${r.wallSeconds} s, ${floor.madeTotal} requests ${JSON.stringify(floor.made)}, API floor ${floor.floorTotal} requests = ${floor.floorSeconds} s, peak RSS ${r.peakRssMb} MB, load ${load}`);
    return { ...r, floor, load };
  };
  try {
    if (options.pairs.has('reads')) {
      // docs/extraction.md#environment-level-payments: the same export with per-wallet reads forced
      const config = path.join(work, 'per-wallet.json');
      writeFileSync(config, JSON.stringify({ paymentsRead: 'wallet' }));
      const perWallet = await run('per-wallet', ['--page-size', '1000', '--config', config]);
      const whole = await run('environment-level', ['--page-size', '1000']);
      const differingFiles = Object.keys({ ...perWallet.outputHashes, ...whole.outputHashes }).filter((f) => perWallet.outputHashes[f] !== whole.outputHashes[f]);
      result.reads = { perWallet, whole, sameBytes: differingFiles.length === 0, differingFiles };
      options.log(`  reads: CSV + XLSX bytes ${differingFiles.length === 0 ? 'identical' : `differ: ${differingFiles.join(', ')}`}`);
    }
    if (options.pairs.has('behind')) {
      const commit = git(ROOT, 'rev-parse', AFTER_PULL_REF);
      const root = prepareBaseline(commit, path.join(os.tmpdir(), `payexport-bench-base-${commit.slice(0, 12)}`));
      const runAt = async (label: string, at: string) => {
        const load = loadNow();
        // the same page asked by both (the baseline's default was 100, this checkout's is 1000): the pair measures the report's place only
        const r = await runExport({ ...base, databaseUrl: options.databaseUrl, root: at, extraArgs: ['--page-size', '1000'] });
        options.log(`  ${label}: ${r.wallSeconds} s, job CPU ${r.cpuSeconds.job} s, peak RSS ${r.peakRssMb} MB, stages ${JSON.stringify(r.phases)}, load ${load}`);
        return { ...r, load };
      };
      const before = await runAt(`report after the pull (${commit.slice(0, 7)})`, root);
      const after = await runAt('report behind the pull (this checkout)', ROOT);
      const differingFiles = Object.keys({ ...before.outputHashes, ...after.outputHashes }).filter((f) => before.outputHashes[f] !== after.outputHashes[f]);
      result.behind = { afterPullCommit: commit, before, after, sameBytes: differingFiles.length === 0, differingFiles };
    }
    if (options.pairs.has('roundtrips')) {
      const before = await run('pages-of-100', ['--page-size', '100']);
      // the default asks for the largest page (1000; the simulator grants 500)
      const after = await run('default', []);
      const differingFiles = Object.keys({ ...before.outputHashes, ...after.outputHashes }).filter((f) => before.outputHashes[f] !== after.outputHashes[f]);
      result.roundTrips = { before, after, sameBytes: differingFiles.length === 0, differingFiles };
      if (options.pairs.has('efficiency')) {
        const floors = await measureFloors(options, after);
        const bound = Math.max(after.floor.floorSeconds, floors.cpuSeconds / floors.cores);
        result.efficiency = { apiFloorSeconds: after.floor.floorSeconds, cpuSeconds: floors.cpuSeconds, cores: floors.cores, parts: floors.parts, wallSeconds: after.wallSeconds, ratio: Math.round((after.wallSeconds / bound) * 100) / 100 };
        options.log(`  efficiency: ${after.wallSeconds} s ÷ max(API floor ${after.floor.floorSeconds} s, CPU floor ${floors.cpuSeconds} s ÷ ${floors.cores}) = ${result.efficiency.ratio}`);
      }
    }
    if (options.pairs.has('naive')) {
      const load = loadNow();
      const payexport = await runExport({ ...base, databaseUrl: null, extraArgs: ['--no-db'] });
      options.log(`  payexport --no-db: ${payexport.wallSeconds} s, peak RSS ${payexport.peakRssMb} MB, job CPU ${payexport.cpuSeconds.job} s, load ${load}`);
      const naiveLoad = loadNow();
      const naive = await runNaive({ ...base, out: path.join(work, 'naive') });
      options.log(`  naive: ${naive.wallSeconds} s, peak RSS ${naive.peakRssMb} MB, CPU ${naive.cpuSeconds} s, ${naive.requests} requests, load ${naiveLoad}`);
      result.naive = {
        payexport: { ...payexport, load },
        naive: { ...naive, load: naiveLoad },
        speedRatio: Math.round((naive.wallSeconds / payexport.wallSeconds) * 100) / 100,
        memoryRatio: Math.round((payexport.peakRssMb / naive.peakRssMb) * 1000) / 1000,
      };
    }
    return result;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** The naive exporter against a fresh simulator child, measured from outside by /usr/bin/time. */
async function runNaive(options: { payments: number; wallets: number; seed: number; latencyMs: number; out: string }): Promise<NaiveRun> {
  const { child: sim, info } = await startSimChild(options);
  try {
    const args = ['-f', 'TIME %e %M %U %S', process.execPath, '--import', 'tsx', path.join(ROOT, 'bench/naive-exporter.ts'), '--base-url', info.baseUrl, '--organization', info.organizationId, '--from', WINDOW.from, '--to', WINDOW.to, '--out', options.out];
    const { code, stdout, stderr } = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve, reject) => {
      const child = spawn('/usr/bin/time', args, { cwd: ROOT, env: { ...launcherEnv(process.env), PAYEXPORT_BEARER_TOKEN: info.bearerToken }, stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      let err = '';
      child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
      child.once('error', reject);
      child.once('close', (c) => resolve({ code: c ?? 1, stdout: out, stderr: err }));
    });
    if (code !== 0) throw new Error(`naive exporter exited ${code}: ${stderr.slice(-2000)}`);
    const timeLine = stderr.split('\n').reverse().find((line) => line.startsWith('TIME '));
    if (timeLine === undefined) throw new Error('no /usr/bin/time line');
    const [, wall, maxRssKb, user, system] = timeLine.split(' ');
    const facts = JSON.parse(stdout.trim().split('\n').at(-1) as string) as { requests: number };
    return { wallSeconds: Number(wall), peakRssMb: Math.round(Number(maxRssKb) / 1024), cpuSeconds: Math.round((Number(user) + Number(system)) * 10) / 10, requests: facts.requests };
  } finally {
    await stopChild(sim);
  }
}
