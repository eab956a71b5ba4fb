/**
 * The `issue41` section of `npm run bench` (docs/benchmarks.md "Issue 41"): the job's CPU per
 * payment against the bare libraries' floor for the same data, in one run.
 *
 *   runs   `export` with no added latency (CPU-bound) on the spool (`--no-db`), the Postgres
 *          server and the embedded engine, one after the other on the same seeded data: job CPU
 *          (user + sys, every thread), CPU per stage, and the server's CPU (bench/e2e/proc-stat.ts)
 *   floor  JSON.parse of the page bodies the pull reads (bench/floor/page-parse.ts), csv-stringify
 *          and exceljs streaming of the rows the spool run wrote (bench/floor/file-rows.ts), and
 *          plain COPY at the rate bench/store.ts measures, for the rows pulled (server path only)
 *   gc     the spool run again under `--cpu-prof`: the garbage collector's share of the main thread,
 *          and the same share for the bare writers on that run's rows (bench/floor/writers-gc.ts)
 *
 * Targets (bench/issue41-verdicts.ts): job CPU ≤ 1.5 × floor (spool, server); embedded CPU ≤ 1.2 ×
 * (server job + server CPU); GC ≤ 8 %. Bytes: bench/output-digests.ts.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runExport, type ExportRunResult } from './e2e/export-run.js';
import { measureCopyRowsPerSecond } from './floor/copy-rate.js';
import { measureFileRows, type FileRowsFloor } from './floor/file-rows.js';
import { gcShareOf, type GcShare } from './floor/gc-share.js';
import { measureWritersGc, type WritersGc } from './floor/writers-gc.js';
import { measurePageParse, type PageParseFloor } from './floor/page-parse.js';
import { measureRequiredWork, type RequiredWork } from './floor/required-work.js';

export interface CpuFloorOptions {
  payments: number;
  wallets: number;
  seed: number;
  concurrency: number;
  databaseUrl: string;
  /** also the embedded run and the GC profile (default both) */
  embedded: boolean;
  gc: boolean;
  /**
   * Spool runs, each followed by its own floor (default 1). The job and its floor are measured one
   * after the other, and this kind of machine drifts ±25 % within minutes: one pair gave 1.31 ×
   * and the next 1.65 × for the same build. With several rounds the verdict is the median round's.
   */
  rounds?: number;
  log: (line: string) => void;
}

/** One spool run and the floor measured right after it, on its own files. */
export interface CpuFloorRound {
  jobUs: number;
  floorUs: number;
  ratio: number;
}

export interface BareLibraryFloor {
  pages: PageParseFloor;
  files: FileRowsFloor;
  copy: { rows: number; rowsPerSecond: number; seconds: number };
  /** µs per payment: JSON.parse + csv-stringify + exceljs, and that + COPY */
  noDbUs: number;
  serverUs: number;
  /**
   * What the job must add to the floor, at its cheapest (bench/floor/required-work.ts): receiving the
   * bodies, keeping them durably, reading them back once. Beside the verdict, not in it: it says how
   * much of the 1.5 × budget (0.5 × floor) is taken before the job does anything of its own.
   */
  required: RequiredWork;
  requiredUs: number;
}

export interface CpuFloorResult {
  payments: number;
  wallets: number;
  spool: ExportRunResult;
  server: ExportRunResult;
  embedded?: ExportRunResult;
  floor: BareLibraryFloor;
  gc?: GcShare;
  /** the collector's share for csv-stringify and exceljs alone on the GC run's rows, each beyond the parse */
  writersGc?: WritersGc;
  /** job CPU µs per payment, and per stage */
  us: { spool: number; server: number; serverPostgres: number; embedded: number | null };
  stagesUs: Record<'spool' | 'server' | 'embedded', Record<string, number>>;
  ratios: { spoolOverFloor: number; serverOverFloor: number; embeddedOverServerTotal: number | null; embeddedWall: number | null };
  /** every spool round (job, then its floor), in run order; the table shows the median one */
  rounds: CpuFloorRound[];
}

const round = (x: number, digits = 2): number => Math.round(x * 10 ** digits) / 10 ** digits;

export async function runCpuFloor(options: CpuFloorOptions): Promise<CpuFloorResult> {
  const base = { payments: options.payments, wallets: options.wallets, seed: options.seed, concurrency: options.concurrency };
  const perPayment = (seconds: number): number => round((seconds * 1e6) / options.payments, 1);
  const runs: Array<{ spool: ExportRunResult; files: FileRowsFloor; pages: PageParseFloor; ratio: number }> = [];
  const rounds = Math.max(1, options.rounds ?? 1);
  for (let i = 0; i < rounds; i++) {
    let files: FileRowsFloor | undefined;
    options.log(`  spool (--no-db), then the writers' floor on its files${rounds > 1 ? ` (round ${i + 1} of ${rounds})` : ''}`);
    const spool = await runExport({ ...base, databaseUrl: null, extraArgs: ['--no-db'], withReports: async (dir) => void (files = await measureFileRows(dir)) });
    if (files === undefined) throw new Error('the spool run published no report folder');
    const pages = await measurePageParse(base);
    const ratio = spool.cpuSeconds.job / (pages.seconds + files.csvStringifySeconds + files.exceljsSeconds);
    options.log(`  spool: job CPU ${spool.cpuSeconds.job} s, stages ${JSON.stringify(spool.cpuPhases)}; job ÷ floor ${ratio.toFixed(2)}`);
    runs.push({ spool, files, pages, ratio });
  }
  // the median round (of an even count, the upper middle: the verdict errs against the job)
  const median = [...runs].sort((a, b) => a.ratio - b.ratio)[Math.floor(runs.length / 2)]!;
  const { spool, files, pages } = median;
  const server = await runExport({ ...base, databaseUrl: options.databaseUrl });
  options.log(`  server: job CPU ${server.cpuSeconds.job} s + Postgres ${server.postgresCpuSeconds} s, stages ${JSON.stringify(server.cpuPhases)}`);
  const embedded = options.embedded ? await runExport({ ...base, databaseUrl: null }) : undefined;
  if (embedded) options.log(`  embedded: job CPU ${embedded.cpuSeconds.job} s, wall ${embedded.wallSeconds} s, stages ${JSON.stringify(embedded.cpuPhases)}`);
  let gc: GcShare | undefined;
  let writersGc: WritersGc | undefined;
  if (options.gc) {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'payexport-issue41-prof-'));
    try {
      await runExport({ ...base, databaseUrl: null, extraArgs: ['--no-db'], cpuProfDir: dir, withReports: async (reports) => void (writersGc = measureWritersGc(reports)) });
      gc = gcShareOf(dir);
      options.log(`  gc: ${gc.gcSeconds.toFixed(1)} s of ${gc.busySeconds.toFixed(1)} s busy on the main thread = ${(gc.share * 100).toFixed(1)} %`);
      const w = writersGc as WritersGc | undefined;
      if (w) options.log(`  the bare writers' gc on the same rows, beyond the parse: ${w.writers.gcSeconds.toFixed(2)} s of ${w.writers.busySeconds.toFixed(2)} s = ${(w.writers.share * 100).toFixed(1)} %`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  const required = await measureRequiredWork(base);
  const rowsPerSecond = measureCopyRowsPerSecond(options.payments, options.databaseUrl);
  const copy = { rows: server.rowsPulled, rowsPerSecond, seconds: server.rowsPulled / rowsPerSecond };
  const noDb = pages.seconds + files.csvStringifySeconds + files.exceljsSeconds;
  const requiredSeconds = required.receiveSeconds + required.keepSeconds + required.rereadSeconds;
  const floor: BareLibraryFloor = { pages, files, copy, noDbUs: perPayment(noDb), serverUs: perPayment(noDb + copy.seconds), required, requiredUs: perPayment(requiredSeconds) };
  options.log(`  floor: JSON.parse ${pages.seconds.toFixed(2)} s (${pages.pages} pages), csv-stringify ${files.csvStringifySeconds.toFixed(2)} s, exceljs ${files.exceljsSeconds.toFixed(2)} s (${files.rows} rows), COPY ${copy.seconds.toFixed(2)} s`);
  options.log(`  beyond the floor, at its cheapest: receive ${required.receiveSeconds.toFixed(2)} s, keep ${required.keepSeconds.toFixed(2)} s, read back ${required.rereadSeconds.toFixed(2)} s`);
  const stages = (r: ExportRunResult): Record<string, number> => Object.fromEntries(Object.entries(r.cpuPhases).map(([k, v]) => [k, perPayment(v)]));
  const us = {
    spool: perPayment(spool.cpuSeconds.job),
    server: perPayment(server.cpuSeconds.job),
    serverPostgres: perPayment(server.postgresCpuSeconds),
    embedded: embedded ? perPayment(embedded.cpuSeconds.job) : null,
  };
  return {
    payments: options.payments,
    wallets: options.wallets,
    spool,
    server,
    ...(embedded ? { embedded } : {}),
    floor,
    ...(gc ? { gc } : {}),
    ...(writersGc ? { writersGc } : {}),
    us,
    stagesUs: { spool: stages(spool), server: stages(server), embedded: embedded ? stages(embedded) : {} },
    rounds: runs.map((r) => ({ jobUs: perPayment(r.spool.cpuSeconds.job), floorUs: perPayment(r.pages.seconds + r.files.csvStringifySeconds + r.files.exceljsSeconds), ratio: round(r.ratio) })),
    ratios: {
      spoolOverFloor: round(us.spool / floor.noDbUs),
      serverOverFloor: round(us.server / floor.serverUs),
      embeddedOverServerTotal: us.embedded === null ? null : round(us.embedded / (us.server + us.serverPostgres)),
      embeddedWall: embedded ? round(embedded.wallSeconds / server.wallSeconds) : null,
    },
  };
}
