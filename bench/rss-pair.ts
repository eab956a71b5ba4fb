/**
 * Peak RSS of `payexport export` runs back to back on the same data, with the job's RSS sampled
 * every 250 ms beside its `phase` log lines, so that a peak can be placed in a stage (pull, report)
 * rather than only counted. No latency by default: the worst case for memory is a pull that is
 * never waiting. Prints one JSON line per run and the sha256 comparison of every CSV / XLSX file.
 *
 *   npx tsx bench/rss-pair.ts --payments 100000 --wallets 200 [--engine spool|embedded|server]
 *        [--args="--page-size 100" --args=""]   (one run per --args; default: pages of 100, then the default;
 *                                               `node flags|cli args` gives one run its own node flags)
 *        [--samples out.jsonl]                  (every sample: t, rss MB, phase)
 *        [--latency 50]                         (ms added to every request: the naive pair's setting)
 *
 * Peak RSS is the kernel's VmHWM of the job's process, the same number /usr/bin/time reports.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { appendFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { WINDOW } from './e2e/export-run.js';
import { launcherEnv } from './e2e/launcher-env.js';
import { ROOT, startSimChild, stopChild } from './e2e/sim-child.js';

const { values } = parseArgs({
  options: {
    payments: { type: 'string', default: '100000' },
    wallets: { type: 'string', default: '200' },
    seed: { type: 'string', default: '11' },
    concurrency: { type: 'string', default: '8' },
    /** ms the simulator adds to every request (default none: the worst case for memory) */
    latency: { type: 'string', default: '0' },
    engine: { type: 'string', default: 'spool' },
    args: { type: 'string', multiple: true },
    samples: { type: 'string' },
    /** node flags for the job (e.g. --trace-gc); its output goes to --gc-log */
    node: { type: 'string', default: '' },
    'gc-log': { type: 'string' },
    /** a heap snapshot of the job this many seconds into this phase (`report@3`), written to --snapshot-dir */
    'snapshot-at': { type: 'string' },
    'snapshot-dir': { type: 'string', default: os.tmpdir() },
    /** the job's /proc/<pid>/smaps at its highest RSS sampled, written here (what the peak is made of) */
    smaps: { type: 'string' },
    'database-url': { type: 'string', default: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test' },
  },
});

interface Run {
  label: string;
  load: string;
  wallSeconds: number;
  peakRssMb: number;
  /** user + system CPU seconds of the job, as last sampled (within 250 ms of its end) */
  cpuSeconds: number;
  /** the highest RSS sampled in each phase */
  peakByPhase: Record<string, number>;
  requests: number;
  hashes: Record<string, string>;
}

const variants = values.args ?? ['--page-size 100', ''];
const runs: Run[] = [];
for (const variant of variants) runs.push(await runOnce(variant));
const [first, ...rest] = runs;
for (const run of rest) {
  const differing = Object.keys({ ...first!.hashes, ...run.hashes }).filter((f) => first!.hashes[f] !== run.hashes[f]);
  console.log(JSON.stringify({ compare: `${first!.label} vs ${run.label}`, files: Object.keys(run.hashes).length, differing }));
}

async function runOnce(variant: string): Promise<Run> {
  const work = mkdtempSync(path.join(os.tmpdir(), 'payexport-rss-'));
  const schema = `bench_rss_${process.pid}_${runs.length}`;
  const { child: sim, info } = await startSimChild({ payments: Number(values.payments), wallets: Number(values.wallets), seed: Number(values.seed), latencyMs: Number(values.latency) });
  const load = os.loadavg().map((x) => x.toFixed(2)).join(' ');
  try {
    const engine = values.engine === 'server' ? ['--database-url', values['database-url']!, '--schema', schema] : ['--data-dir', path.join(work, 'data'), ...(values.engine === 'spool' ? ['--no-db'] : [])];
    const [variantNode, variantArgs] = variant.includes('|') ? (variant.split('|') as [string, string]) : ['', variant];
    const snapshotFlags = values['snapshot-at'] ? ['--heapsnapshot-signal=SIGUSR2', `--diagnostic-dir=${values['snapshot-dir']}`] : [];
    const args = [...snapshotFlags, ...values.node!.split(' ').filter(Boolean), ...variantNode.split(' ').filter(Boolean), path.join(ROOT, 'dist/cli/main.js'), 'export', '--from', WINDOW.from, '--to', WINDOW.to, '--base-url', info.baseUrl, '--organization', info.organizationId, '--out', path.join(work, 'reports'), '--format', 'csv,xlsx', '--concurrency', values.concurrency!, '--log-format', 'json', ...engine, ...variantArgs.split(' ').filter(Boolean)];
    const env: NodeJS.ProcessEnv = { ...launcherEnv(process.env), PAYEXPORT_BEARER_TOKEN: info.bearerToken, PAYEXPORT_API_KEY: '', NO_COLOR: '1' };
    if (values.engine !== 'server') delete env.DATABASE_URL;
    const started = Date.now();
    const child = spawn(process.execPath, args, { env, cwd: work, stdio: ['ignore', 'pipe', 'pipe'] });
    let phase = 'startup';
    const peakByPhase: Record<string, number> = {};
    let hwm = 0;
    let cpuTicks = 0;
    let output = '';
    const onLine = (chunk: Buffer): void => {
      output += chunk.toString();
      if (values['gc-log']) appendFileSync(values['gc-log'], chunk);
      for (const m of chunk.toString().matchAll(/"phase":"([a-z_]+)"/g)) {
        phase = m[1]!;
        const [at, delay] = (values['snapshot-at'] ?? '').split('@');
        if (at === phase) setTimeout(() => child.kill('SIGUSR2'), Number(delay ?? 0) * 1000);
      }
    };
    child.stdout.on('data', onLine);
    child.stderr.on('data', onLine);
    const sampler = setInterval(() => {
      let status: string;
      try {
        status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
      } catch {
        return;
      }
      const rss = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
      try {
        // fields 14 and 15 of /proc/<pid>/stat (after the command name in parentheses): utime, stime in ticks
        const fields = readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
        cpuTicks = Number(fields[11]) + Number(fields[12]);
      } catch {
        // ended meanwhile
      }
      if (values.smaps && rss > hwm + 2) {
        try {
          writeFileSync(values.smaps, `rss ${Math.round(rss)} MB, phase ${phase}, t ${(Date.now() - started) / 1000}\n${readFileSync(`/proc/${child.pid}/smaps`, 'utf8')}`);
        } catch {
          // the process ended between the two reads
        }
      }
      hwm = Math.max(hwm, Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024);
      peakByPhase[phase] = Math.max(peakByPhase[phase] ?? 0, Math.round(rss));
      if (values.samples) appendFileSync(values.samples, `${JSON.stringify({ run: variant || 'default', t: (Date.now() - started) / 1000, rss: Math.round(rss), phase })}\n`);
    }, 250);
    const code = await new Promise<number>((resolve) => child.once('close', (c) => resolve(c ?? 1)));
    clearInterval(sampler);
    if (code !== 0 && code !== 65) throw new Error(`export exited ${code}: ${output.slice(-3000)}`);
    const { hashes, requests } = manifestFacts(path.join(work, 'reports'));
    const run: Run = { label: variant || 'default', load, wallSeconds: (Date.now() - started) / 1000, cpuSeconds: Math.round(cpuTicks) / 100, peakRssMb: Math.round(hwm), peakByPhase, requests, hashes };
    console.log(JSON.stringify({ ...run, hashes: undefined }));
    return run;
  } finally {
    await stopChild(sim);
    if (values.engine === 'server') {
      const { default: pg } = await import('pg');
      const client = new pg.Client({ connectionString: values['database-url'] });
      await client.connect();
      await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).finally(() => client.end());
    }
    rmSync(work, { recursive: true, force: true });
  }
}

function manifestFacts(root: string): { hashes: Record<string, string>; requests: number } {
  const stack = [root];
  while (stack.length > 0) {
    const dir = stack.pop()!;
    for (const name of readdirSync(dir)) {
      const full = path.join(dir, name);
      if (name === 'manifest.json') {
        const manifest = JSON.parse(readFileSync(full, 'utf8')) as { files?: Array<{ path: string }>; counts?: Record<string, number> };
        const hashes: Record<string, string> = {};
        for (const file of manifest.files ?? []) if (/\.(csv|xlsx)$/.test(file.path)) hashes[file.path] = createHash('sha256').update(readFileSync(path.join(dir, file.path))).digest('hex');
        return { hashes, requests: manifest.counts?.api_requests ?? 0 };
      }
      if (statSync(full).isDirectory() && !name.startsWith('.')) stack.push(full);
    }
  }
  throw new Error(`no manifest.json under ${root}`);
}
