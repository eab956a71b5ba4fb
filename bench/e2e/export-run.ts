/**
 * One end-to-end `payexport export` against a simulator child, as a user runs it: the built CLI
 * (dist/), CSV + XLSX + a Postgres snapshot, measured from outside by /usr/bin/time (wall clock and
 * peak RSS of the job's process, nothing of the benchmark's own). The job logs JSON lines; the
 * `phase` lines give the stage times, the manifest gives the rows written.
 *
 * The simulator runs in its own process so its CPU is not the job's; on a 2-core machine they share
 * the cores, as the job would share them with a remote service's network stack — the simulator
 * answers from its seeded dataset without latency here, so the pull is CPU-bound, the worst case.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createHash, randomBytes } from 'node:crypto';
import { launcherEnv } from './launcher-env.js';
import { busyCoreSeconds, postgresCpuSeconds, processCpuSeconds } from './proc-stat.js';
import { ROOT, startSimChild, stopChild } from './sim-child.js';

export interface ExportRunOptions {
  payments: number;
  wallets: number;
  seed: number;
  /** a Postgres server; null = the embedded engine in a new data folder (what a new user gets) */
  databaseUrl: string | null;
  concurrency: number;
  /** added by the simulator to every request; default 0 (the pull CPU-bound, the worst case) */
  latencyMs?: number;
  /** `--cpu-prof` for the job, written here */
  cpuProfDir?: string;
  /** more node flags for the job's process (e.g. `--import` of a preload, a V8 flag to compare) */
  nodeFlags?: readonly string[];
  /** the checkout whose built CLI runs (default this one): a baseline build for the `cores` section */
  root?: string;
  /** more flags for `payexport export` (e.g. `--page-size 100`, `--no-db`) */
  extraArgs?: readonly string[];
  /** the simulator's JSON-lines request log goes here */
  requestLog?: string;
  /** called with the published report folder before the run's folder is removed (issue 41's writers' floor reads it) */
  withReports?: (dir: string) => Promise<void>;
}

export interface ExportRunResult {
  payments: number;
  wallets: number;
  exitCode: number;
  wallSeconds: number;
  peakRssMb: number;
  /** seconds per phase of the job's own log: discovery, pull, report (reconcile + files + publish) */
  phases: Record<string, number>;
  /** rows of the published data files, by file (header excluded) */
  rowsWritten: Record<string, number>;
  /** payments + ledger events pulled */
  rowsPulled: number;
  apiRequests: number;
  outputMb: number;
  /**
   * Where the machine's CPU went during the run, in core-seconds: the job (user + sys of its
   * process), the simulator, and everything else (Postgres, the kernel's loopback TCP, other
   * tenants) — with `machine` = cores × wall, how close the run came to using the whole box.
   */
  cpuSeconds: { job: number; simulator: number; rest: number; busy: number; machine: number };
  /** CPU seconds of the job per stage (the `cpu_ms` of its phase log lines; the last stage ends with the process) */
  cpuPhases: Record<string, number>;
  /** CPU seconds of every `postgres` process on the machine during the run (the server's share of a server run) */
  postgresCpuSeconds: number;
  /** sha256 of every CSV and XLSX file of the report folder, by file name */
  outputHashes: Record<string, string>;
}

export const WINDOW = { from: '2026-09-01', to: '2026-11-21' };

export async function runExport(options: ExportRunOptions): Promise<ExportRunResult> {
  const work = mkdtempSync(path.join(os.tmpdir(), 'payexport-bench-e2e-'));
  const schema = `bench_e2e_${randomBytes(3).toString('hex')}`;
  const { child: sim, info } = await startSimChild({ payments: options.payments, wallets: options.wallets, seed: options.seed, latencyMs: options.latencyMs ?? 0, ...(options.requestLog ? { requestLog: options.requestLog } : {}) });
  try {
    const args = [
      '-f',
      'TIME %e %M %U %S',
      process.execPath,
      ...(options.cpuProfDir ? ['--cpu-prof', '--cpu-prof-dir', options.cpuProfDir] : []),
      ...(options.nodeFlags ?? []),
      builtCli(options.root ?? ROOT),
      'export',
      '--from',
      WINDOW.from,
      '--to',
      WINDOW.to,
      '--base-url',
      info.baseUrl,
      '--organization',
      info.organizationId,
      '--out',
      path.join(work, 'reports'),
      '--format',
      'csv,xlsx',
      ...(options.databaseUrl === null ? ['--data-dir', path.join(work, 'data')] : ['--database-url', options.databaseUrl, '--schema', schema]),
      '--concurrency',
      String(options.concurrency),
      '--log-format',
      'json',
      ...(options.extraArgs ?? []),
    ];
    const busyBefore = busyCoreSeconds();
    const postgresBefore = postgresCpuSeconds();
    const simBefore = processCpuSeconds(sim.pid as number);
    const env: NodeJS.ProcessEnv = { ...launcherEnv(process.env), PAYEXPORT_BEARER_TOKEN: info.bearerToken, PAYEXPORT_API_KEY: '', NO_COLOR: '1' };
    // the embedded run must not find a server through the environment
    if (options.databaseUrl === null) delete env.DATABASE_URL;
    const { code, stdout, stderr } = await run('/usr/bin/time', args, env, work);
    const busy = busyCoreSeconds() - busyBefore;
    const postgres = postgresCpuSeconds() - postgresBefore;
    const simulator = processCpuSeconds(sim.pid as number) - simBefore;
    const timeLine = stderr.split('\n').reverse().find((line) => line.startsWith('TIME '));
    if (timeLine === undefined) throw new Error(`no /usr/bin/time line; stderr:\n${stderr.slice(-2000)}`);
    const [, wall, maxRssKb, user, system] = timeLine.split(' ');
    const job = Number(user) + Number(system);
    if (code !== 0 && code !== 65) throw new Error(`export exited ${code}:\n${stderr.slice(-3000)}`);
    const logLines = `${stdout}\n${stderr}`
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => {
        try {
          return JSON.parse(line) as Record<string, unknown>;
        } catch {
          return null;
        }
      })
      .filter((entry): entry is Record<string, unknown> => entry !== null);
    const manifest = findManifest(path.join(work, 'reports'));
    if (options.withReports) await options.withReports(manifest.dir);
    return {
      payments: options.payments,
      wallets: options.wallets,
      exitCode: code,
      wallSeconds: Number(wall),
      peakRssMb: Math.round(Number(maxRssKb) / 1024),
      phases: phaseSeconds(logLines, Number(wall)),
      cpuPhases: phaseCpuSeconds(logLines, job),
      postgresCpuSeconds: round1(postgres),
      rowsWritten: manifest.rows,
      rowsPulled: (manifest.counts.pulled_payments ?? 0) + (manifest.counts.pulled_ledger ?? 0),
      apiRequests: manifest.counts.api_requests ?? 0,
      outputMb: Math.round(manifest.bytes / 1e5) / 10,
      outputHashes: manifest.hashes,
      cpuSeconds: { job: round1(job), simulator: round1(simulator), rest: round1(Math.max(0, busy - job - simulator)), busy: round1(busy), machine: round1(os.cpus().length * Number(wall)) },
    };
  } finally {
    await stopChild(sim);
    if (options.databaseUrl !== null) await dropSchema(options.databaseUrl, schema);
    rmSync(work, { recursive: true, force: true });
  }
}

/** Seconds between consecutive `phase` log lines; the last phase ends when the process does. */
function phaseSeconds(lines: Array<Record<string, unknown>>, wallSeconds: number): Record<string, number> {
  // pino writes `time` as an ISO string here (epoch ms elsewhere): accept both
  const at = (l: Record<string, unknown>): number | null => (typeof l.time === 'number' ? l.time : typeof l.time === 'string' ? Date.parse(l.time) : null);
  const marks = lines.filter((l) => typeof l.phase === 'string' && at(l) !== null).map((l) => ({ phase: l.phase as string, at: at(l) as number }));
  const times = lines.map(at).filter((t): t is number => t !== null);
  const first = times[0];
  const last = times.reduce((m, t) => Math.max(m, t), 0);
  const out: Record<string, number> = {};
  if (first !== undefined && marks[0] !== undefined) out.startup = round1((marks[0].at - first) / 1000);
  for (let i = 0; i < marks.length; i++) {
    const end = marks[i + 1]?.at ?? last;
    out[marks[i]!.phase] = round1((end - marks[i]!.at) / 1000);
  }
  const logged = first === undefined ? 0 : (last - first) / 1000;
  out.process_overhead = round1(Math.max(0, wallSeconds - logged));
  return out;
}

/** CPU seconds between consecutive `phase` lines (their `cpu_ms`); the last stage ends at the process's total. */
function phaseCpuSeconds(lines: Array<Record<string, unknown>>, jobSeconds: number): Record<string, number> {
  const marks = lines.filter((l) => typeof l.phase === 'string' && typeof l.cpu_ms === 'number').map((l) => ({ phase: l.phase as string, ms: l.cpu_ms as number }));
  const out: Record<string, number> = {};
  if (marks[0] !== undefined) out.startup = round1(marks[0].ms / 1000);
  for (let i = 0; i < marks.length; i++) {
    const end = marks[i + 1]?.ms ?? jobSeconds * 1000;
    out[marks[i]!.phase] = round1((end - marks[i]!.ms) / 1000);
  }
  return out;
}

interface ManifestFacts {
  dir: string;
  rows: Record<string, number>;
  hashes: Record<string, string>;
  counts: Record<string, number>;
  bytes: number;
}

function findManifest(root: string): ManifestFacts {
  const stack = [root];
  while (stack.length > 0) {
    const dir = stack.pop()!;
    if (!existsSync(dir)) continue;
    for (const name of readdirSync(dir)) {
      const full = path.join(dir, name);
      if (name === 'manifest.json') {
        const manifest = JSON.parse(readFileSync(full, 'utf8')) as { files?: Array<{ path: string; rows?: number }>; counts?: Record<string, number> };
        const rows: Record<string, number> = {};
        const hashes: Record<string, string> = {};
        let bytes = 0;
        for (const file of manifest.files ?? []) {
          if (typeof file.rows === 'number') rows[file.path] = file.rows;
          bytes += statSync(path.join(dir, file.path)).size;
          // hashed from the bytes on disk, not taken from the manifest: the comparison must not trust the writer
          if (/\.(csv|xlsx)$/.test(file.path)) hashes[file.path] = createHash('sha256').update(readFileSync(path.join(dir, file.path))).digest('hex');
        }
        return { dir, rows, hashes, counts: manifest.counts ?? {}, bytes };
      }
      if (statSync(full).isDirectory() && !name.startsWith('.')) stack.push(full);
    }
  }
  throw new Error(`no manifest.json under ${root}`);
}

async function dropSchema(url: string, schema: string): Promise<void> {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  } finally {
    await client.end();
  }
}

function run(command: string, args: string[], env: NodeJS.ProcessEnv, cwd: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env, cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code: code ?? 1, stdout, stderr }));
  });
}



function round1(n: number): number {
  return Math.round(n * 10) / 10;
}

/** What bin/payexport starts: the bundled CLI, or dist/cli/main.js in a checkout built before there was one (a baseline). */
function builtCli(root: string): string {
  const bundled = path.join(root, 'dist/bundle/main.js');
  return existsSync(bundled) ? bundled : path.join(root, 'dist/cli/main.js');
}
