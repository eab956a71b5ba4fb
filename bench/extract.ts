/**
 * Extraction benchmark (not a test): `npx tsx bench/extract.ts [--payments 50000] [--wallets 200]
 * [--latency 50] [--concurrency 8] [--page-size 100] [--store spool|memory|postgres] [--max-chain-pages N]
 * [--repeat 3] [--no-warmup] [--write-latency MS] [--evidence off|on|alternate]` (`--write-latency`: the memory
 * store made as slow as a disk, reproducibly; `--evidence`: the pull's evidence journal written as the job
 * writes it — `alternate` measures without and with it in turn, docs/benchmarks.md "The evidence of the pull").
 *
 * The simulator runs as a child process (`payexport sim`, its own core, `latency=<ms>` on every
 * request, a JSON-lines request log); this process runs discovery + `pull()` exactly as the job does
 * (one limiter, the pool of chains, normalization, the snapshot writer). The request count comes from
 * the simulator's log. The floor is what a perfectly packed pipe would take:
 *
 *   floor = requests × latency / concurrency          ratio = wall / floor   (target ≤ 1.15)
 *
 * `node --cpu-prof --import tsx bench/extract.ts` profiles this process; `node --expose-gc --import tsx …` adds the
 * live heap after each pull (memory stays flat: it must not grow with the dataset). Results: stdout and
 * bench/out/extract.json.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import pLimit from 'p-limit';
import { ApiClient } from '../src/api/client.js';
import { EvidenceLog } from '../src/audit/evidence-log.js';
import type { ExtractContext } from '../src/extract/context.js';
import { pull, type PullResult } from '../src/extract/pull.js';
import { discover } from '../src/extract/wallets.js';
import { bindNormalizers } from '../src/jobs/normalizers.js';
import type { LedgerRow, PaymentRow, WalletRow } from '../src/model/rows.js';
import type { Checkpoint, SnapshotWriter, WriteStats } from '../src/model/ports.js';
import type { Window } from '../src/model/window.js';
import { windowContains } from '../src/model/window.js';
import { SpoolStore } from '../src/store/spool/spool-store.js';
import { databaseSnapshot, type DatabaseSnapshot } from '../src/store/database-snapshot.js';
import { openPostgres } from '../src/store/db/pg-db.js';
import { quoteIdent } from '../src/store/db/schema.js';
import { createLogger, type Logger } from '../src/util/log.js';
import { SecretScrubber } from '../src/util/secret-scrubber.js';
import { ROOT, startSimChild, stopChild, type SimInfo } from './e2e/sim-child.js';
import { processCpuSeconds } from './e2e/proc-stat.js';


export interface ExtractionBenchOptions {
  payments: number;
  wallets: number;
  seed: number;
  /** added by the simulator to every request */
  latencyMs: number;
  /** the run's one request limiter */
  concurrency: number;
  pageSize: number;
  /** where pages go: the --no-db spool, an in-memory writer (extraction alone), or Postgres (DATABASE_URL) */
  store: 'spool' | 'memory' | 'postgres';
  /** memory store only: each page write takes this long (a slow disk or database, reproducibly) */
  writeLatencyMs?: number;
  /** pages per chain before a wallet is split into time slices (undefined: adaptive, 0: never) */
  maxChainPages?: number;
  /** the report window; default the simulator's whole range */
  window?: Window;
  /** measured pulls against the same simulator (the first of them after a warm-up pull) */
  repeat?: number;
  /** pull once, unmeasured, first: the simulator builds its per-wallet indexes on first use */
  warmup?: boolean;
  /**
   * the pull's evidence journal (src/audit/evidence-log.ts), hooked to the client as the job hooks
   * it: `off` (default) no hook — no body hashed, nothing written; `alternate` the measured pulls
   * without and with it in turn (without first)
   */
  evidence?: 'off' | 'on' | 'alternate';
}

export interface ExtractionRun {
  wallMs: number;
  discoveryMs: number;
  pullMs: number;
  /** requests the simulator logged for this pull */
  requests: number;
  requestsByKind: Record<string, number>;
  maxInFlight: number;
  /** requests × latency / concurrency */
  floorMs: number;
  ratio: number;
  /** the simulator's own time per request above the injected latency (render, queueing, send), mean */
  simExtraMs: number;
  /** Σ per-request durations at the simulator / concurrency: the floor given the simulator's real response times */
  serverFloorMs: number;
  /** wall / serverFloor: how full the client kept the pipe */
  serverRatio: number;
  rows: { payments: number; ledger: number };
  streams: number;
  slicedStreams: number;
  duplicates: number;
  clientCpuSeconds: number;
  serverCpuSeconds: number;
  /** live heap after a full GC at the end of the pull (only with `node --expose-gc`) */
  heapAfterGcMb: number | null;
  /** the pull wrote its evidence journal; its size */
  evidence: boolean;
  evidenceBytes: number;
}

export interface ExtractionBenchResult {
  options: ExtractionBenchOptions;
  runs: ExtractionRun[];
  /** the run with the median ratio */
  median: ExtractionRun;
  best: ExtractionRun;
  loadAverage: number[];
  peakRssMb: number;
}


interface LogEntry {
  at: string;
  path: string;
  in_flight: number;
  duration_ms: number;
}

const DEFAULT_WINDOW: Window = { from: '2026-09-01T00:00:00.000000Z', to: '2026-11-22T00:00:00.000000Z', tz: 'UTC' };

export async function runExtractionBench(options: ExtractionBenchOptions): Promise<ExtractionBenchResult> {
  const work = mkdtempSync(path.join(os.tmpdir(), 'payexport-bench-extract-'));
  const requestLog = path.join(work, 'requests.jsonl');
  const loadAverage = os.loadavg().map((n) => Math.round(n * 100) / 100);
  const { child, info } = await startSimChild({ ...options, requestLog });
  const scrubber = new SecretScrubber([info.bearerToken]);
  const log = createLogger({ runId: 'bench', scrubber, level: 'warn', format: 'json' });
  const api = new ApiClient({ baseUrl: info.baseUrl, auth: { kind: 'bearer', token: info.bearerToken }, limiter: pLimit(options.concurrency), log, scrubber });
  // the job's hook (src/jobs/pipeline.ts): every exchange to the run's journal, each line through the scrubber
  const journal: { log: EvidenceLog | null } = { log: null };
  const withEvidence = new ApiClient({ baseUrl: info.baseUrl, auth: { kind: 'bearer', token: info.bearerToken }, limiter: pLimit(options.concurrency), log, scrubber, onExchange: (exchange) => journal.log?.request(exchange) });
  const mode = options.evidence ?? 'off';
  try {
    if (options.warmup ?? true) await pullOnce(options, info, api, log, await openTarget('memory', work), child.pid as number);
    const measured: Array<Omit<ExtractionRun, 'requests' | 'requestsByKind' | 'maxInFlight' | 'floorMs' | 'ratio' | 'simExtraMs' | 'serverFloorMs' | 'serverRatio'> & { fromEpochMs: number; toEpochMs: number }> = [];
    for (let k = 0; k < Math.max(1, options.repeat ?? 1); k++) {
      const target = await openTarget(options.store, path.join(work, `run-${k}`), options.writeLatencyMs ?? 0);
      const evidence = mode === 'on' || (mode === 'alternate' && k % 2 === 1);
      const journalPath = path.join(work, `evidence-${k}.jsonl`);
      journal.log = evidence ? EvidenceLog.open(journalPath, { run_id: `bench-${k}`, run_key: `bench-${k}`, command: 'export', window: null, resumed: false }, { scrub: (line) => scrubber.scrub(line), clock: () => new Date() }) : null;
      try {
        const run = await pullOnce(options, info, evidence ? withEvidence : api, log, target, child.pid as number);
        journal.log?.end();
        measured.push({ ...run, evidence, evidenceBytes: evidence ? statSync(journalPath).size : 0 });
      } finally {
        journal.log?.close();
        await target.close();
      }
    }
    await stopChild(child);
    const entries = readFileSync(requestLog, 'utf8')
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as LogEntry);
    const runs = measured.map(({ fromEpochMs, toEpochMs, ...run }): ExtractionRun => {
      const mine = entries.filter((e) => Date.parse(e.at) >= fromEpochMs && Date.parse(e.at) <= toEpochMs);
      const requestsByKind: Record<string, number> = {};
      for (const entry of mine) requestsByKind[kindOf(entry.path)] = (requestsByKind[kindOf(entry.path)] ?? 0) + 1;
      const floorMs = (mine.length * options.latencyMs) / options.concurrency;
      const serverFloorMs = mine.reduce((sum, e) => sum + e.duration_ms, 0) / options.concurrency;
      return {
        ...run,
        requests: mine.length,
        requestsByKind,
        maxInFlight: mine.reduce((m, e) => Math.max(m, e.in_flight), 0),
        floorMs: Math.round(floorMs),
        ratio: round3(run.wallMs / floorMs),
        simExtraMs: round3(mine.reduce((sum, e) => sum + e.duration_ms - options.latencyMs, 0) / Math.max(1, mine.length)),
        serverFloorMs: Math.round(serverFloorMs),
        serverRatio: round3(run.wallMs / serverFloorMs),
      };
    });
    const byRatio = [...runs].sort((a, b) => a.ratio - b.ratio);
    return { options, runs, median: byRatio[Math.floor((byRatio.length - 1) / 2)]!, best: byRatio[0]!, loadAverage, peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024) };
  } finally {
    await api.close();
    await withEvidence.close();
    await stopChild(child);
    if (process.env.BENCH_KEEP) console.error(`kept ${work}`);
    else rmSync(work, { recursive: true, force: true });
  }
}

/** Discovery + one pull, exactly as the job runs them; times it. */
async function pullOnce(options: ExtractionBenchOptions, info: SimInfo, api: ApiClient, log: Logger, target: Target, simPid: number) {
  const window = options.window ?? DEFAULT_WINDOW;
  const cpuStart = process.cpuUsage();
  const serverCpuStart = processCpuSeconds(simPid);
  const fromEpochMs = Date.now();
  const started = performance.now();
  const normalize = bindNormalizers(info.organizationId);
  const discovery = await discover({ organizationId: info.organizationId, readers: [{ environmentId: undefined, api }], environmentIds: [], walletIds: [], shard: undefined, normalize });
  const runKey = `bench:${randomBytes(4).toString('hex')}`;
  const resumed = await target.writer.beginRun({ run_id: runKey, run_key: runKey, command: 'export', organization_id: info.organizationId, window, parameters: {}, started_at: '2026-11-22T00:00:00.000000Z' });
  await target.writer.upsertWallets(discovery.allWallets);
  await target.writer.upsertAssets(discovery.assets);
  const discovered = performance.now();
  const ctx: ExtractContext = {
    organizationId: info.organizationId,
    apiFor: () => api,
    writer: target.writer,
    normalize,
    log,
    runKey,
    runId: runKey,
    resume: new Map(resumed.map((c) => [c.stream, c])),
    pageSize: options.pageSize,
  };
  const result: PullResult = await pull(ctx, {
    wallets: discovery.wallets,
    summaryEnvironments: discovery.environments,
    window,
    paymentWindow: window,
    ledgerStart: async () => null,
    orphanPaymentIds: (wallet) => target.orphanPaymentIds(info.organizationId, wallet, window),
    concurrency: options.concurrency,
    ...(options.maxChainPages !== undefined ? { maxChainPages: options.maxChainPages } : {}),
  });
  const finished = performance.now();
  const toEpochMs = Date.now();
  const clientCpu = process.cpuUsage(cpuStart);
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  const heapAfterGcMb = gc ? Math.round(process.memoryUsage().heapUsed / 2 ** 20) : null;
  const rows = { payments: 0, ledger: 0 };
  for (const s of result.streams) {
    if (s.stream.startsWith('payments')) rows.payments += s.rows;
    if (s.stream.startsWith('ledger')) rows.ledger += s.rows;
  }
  return {
    fromEpochMs,
    toEpochMs,
    wallMs: Math.round(finished - started),
    discoveryMs: Math.round(discovered - started),
    pullMs: Math.round(finished - discovered),
    rows,
    streams: result.streams.length,
    slicedStreams: result.streams.filter((s) => s.stream.includes(':slice-')).length,
    duplicates: result.duplicates,
    clientCpuSeconds: round1((clientCpu.user + clientCpu.system) / 1e6),
    serverCpuSeconds: round1(processCpuSeconds(simPid) - serverCpuStart),
    heapAfterGcMb,
  };
}

const round1 = (n: number): number => Math.round(n * 10) / 10;
const round3 = (n: number): number => Math.round(n * 1000) / 1000;

function kindOf(requestPath: string): string {
  if (requestPath.endsWith('/ledger')) return 'ledger';
  if (requestPath.endsWith('/payments/summary')) return 'summary';
  if (/\/payments\/[^/]+$/.test(requestPath)) return 'payment_by_id';
  if (requestPath.endsWith('/payments')) return 'payments';
  return 'other';
}

// ---------------------------------------------------------------------------------------------
// The simulator child


// ---------------------------------------------------------------------------------------------
// Where the pages go

interface Target {
  writer: SnapshotWriter;
  orphanPaymentIds(organizationId: string, wallet: WalletRow, window: Window): Promise<string[]>;
  close(): Promise<void>;
}

async function openTarget(kind: ExtractionBenchOptions['store'], work: string, writeLatencyMs = 0): Promise<Target> {
  if (kind === 'spool') {
    const spool = new SpoolStore(path.join(work, 'spool'));
    return { writer: spool, orphanPaymentIds: (org, wallet, window) => spool.orphanPaymentIds(org, wallet.wallet_id, window), close: async () => undefined };
  }
  if (kind === 'postgres') {
    const url = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
    const schema = `payexport_bench_${randomBytes(4).toString('hex')}`;
    const db = await openPostgres({ url });
    const store: DatabaseSnapshot = databaseSnapshot(db, { schema });
    await store.migrate();
    return {
      writer: store.writer(),
      orphanPaymentIds: (org, wallet, window) => store.orphanPaymentIds(org, wallet, window),
      close: async () => {
        await db.query(`DROP SCHEMA IF EXISTS ${quoteIdent(schema)} CASCADE`);
        await store.close();
      },
    };
  }
  return memoryTarget(writeLatencyMs);
}

/** Keeps only what the pull asks back (orphan ids): the cost of extraction alone. */
function memoryTarget(writeLatencyMs = 0): Target {
  const storage = (): Promise<void> => (writeLatencyMs > 0 ? new Promise((resolve) => setTimeout(resolve, writeLatencyMs)) : Promise.resolve());
  const paymentIds = new Set<string>();
  const ledgerPaymentIds = new Map<string, Array<{ paymentId: string; at: string }>>();
  const stats = (n: number): WriteStats => ({ inserted: n, updated: 0, unchanged: 0 });
  const writer: SnapshotWriter = {
    beginRun: async () => [],
    upsertWallets: async (rows) => stats(rows.length),
    upsertAssets: async (rows) => stats(rows.length),
    writePaymentsPage: async (rows: readonly PaymentRow[], _c: Checkpoint) => {
      await storage();
      for (const row of rows) paymentIds.add(row.payment_id);
      return stats(rows.length);
    },
    writeLedgerPage: async (rows: readonly LedgerRow[], _c: Checkpoint) => {
      await storage();
      for (const row of rows) {
        if (row.payment_id === null) continue;
        const list = ledgerPaymentIds.get(row.wallet_id) ?? [];
        list.push({ paymentId: row.payment_id, at: row.effective_time });
        ledgerPaymentIds.set(row.wallet_id, list);
      }
      return stats(rows.length);
    },
    writeSummaries: async () => undefined,
    writeBillsPage: async (records) => stats(records.length),
    writeBillSummary: async () => undefined,
    writeFindings: async () => undefined,
    finishRun: async () => undefined,
  };
  return {
    writer,
    orphanPaymentIds: async (_org, wallet, window) =>
      [...new Set((ledgerPaymentIds.get(wallet.wallet_id) ?? []).filter((e) => windowContains(window, e.at) && !paymentIds.has(e.paymentId)).map((e) => e.paymentId))].sort(),
    close: async () => undefined,
  };
}

// ---------------------------------------------------------------------------------------------
// CLI entry

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      payments: { type: 'string', default: '50000' },
      wallets: { type: 'string', default: '200' },
      seed: { type: 'string', default: '7' },
      latency: { type: 'string', default: '50' },
      concurrency: { type: 'string', default: '8' },
      'page-size': { type: 'string', default: '100' },
      store: { type: 'string', default: 'spool' },
      'max-chain-pages': { type: 'string' },
      repeat: { type: 'string', default: '3' },
      'no-warmup': { type: 'boolean', default: false },
      'write-latency': { type: 'string' },
      evidence: { type: 'string', default: 'off' },
    },
  });
  const store = values.store as ExtractionBenchOptions['store'];
  if (!['spool', 'memory', 'postgres'].includes(store)) throw new Error(`--store must be spool, memory or postgres, got ${store}`);
  const evidence = values.evidence as NonNullable<ExtractionBenchOptions['evidence']>;
  if (!['off', 'on', 'alternate'].includes(evidence)) throw new Error(`--evidence must be off, on or alternate, got ${evidence}`);
  const result = await runExtractionBench({
    payments: Number(values.payments),
    wallets: Number(values.wallets),
    seed: Number(values.seed),
    latencyMs: Number(values.latency),
    concurrency: Number(values.concurrency),
    pageSize: Number(values['page-size']),
    store,
    repeat: Number(values.repeat),
    warmup: !values['no-warmup'],
    evidence,
    ...(values['write-latency'] !== undefined ? { writeLatencyMs: Number(values['write-latency']) } : {}),
    ...(values['max-chain-pages'] !== undefined ? { maxChainPages: Number(values['max-chain-pages']) } : {}),
  });
  console.log(JSON.stringify(result, null, 2));
  const out = path.join(ROOT, 'bench/out');
  mkdirSync(out, { recursive: true });
  writeFileSync(path.join(out, 'extract.json'), `${JSON.stringify(result, null, 2)}\n`);
  for (const run of result.runs) {
    console.log(
      `ratio ${run.ratio.toFixed(3)}  wall ${run.wallMs} ms / floor ${run.floorMs} ms (${run.requests} requests × ${result.options.latencyMs} ms / ${result.options.concurrency})` +
        `  | simulator +${run.simExtraMs.toFixed(1)} ms/request → server floor ${run.serverFloorMs} ms, wall/serverFloor ${run.serverRatio.toFixed(3)}` +
        `  | client CPU ${run.clientCpuSeconds} s, evidence ${run.evidence ? `${run.evidenceBytes} bytes` : 'off'}`,
    );
  }
  console.log(`median ratio ${result.median.ratio.toFixed(3)}, best ${result.best.ratio.toFixed(3)} (load average at start ${result.loadAverage.join(' ')})`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
