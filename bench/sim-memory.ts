/**
 * Memory and throughput check of the simulator at scale (not a test; record the numbers).
 *
 *   npm run build && npx tsx bench/sim-memory.ts [--scale 1000000] [--concurrency 8] [--limit 100] [--latency 0]
 *
 * Starts `payexport sim` as a child process, pulls every payment through cursor pagination — one
 * chain per wallet × creation-time slice (`--slices`), `--concurrency` chains at once, the way an
 * extractor keeps every connection busy — checks the count against the
 * simulator's own environment summaries, and prints the child's RSS (current and peak, from
 * /proc/<pid>/status) with timings.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { processCpuSeconds } from './e2e/proc-stat.js';

const { values } = parseArgs({
  options: {
    scale: { type: 'string', default: '1000000' },
    concurrency: { type: 'string', default: '8' },
    limit: { type: 'string', default: '100' },
    latency: { type: 'string', default: '0' },
    seed: { type: 'string', default: '1' },
    slices: { type: 'string', default: '12' },
  },
});
const scale = Number(values.scale);
const concurrency = Number(values.concurrency);
const limit = Number(values.limit);
const latencyMs = Number(values.latency);
const slices = Number(values.slices);

/** Creation-time windows over the default range [2026-09-01, 2026-11-22): inclusive bounds, no overlap. */
function windows(): Array<{ start: string; end: string }> {
  const from = Date.parse('2026-09-01T00:00:00Z') * 1000;
  const to = Date.parse('2026-11-22T00:00:00Z') * 1000;
  const iso = (us: number): string => `${new Date(Math.floor(us / 1000)).toISOString().slice(0, 19)}.${String(us % 1_000_000).padStart(6, '0')}Z`;
  return Array.from({ length: slices }, (_, k) => {
    const start = from + Math.floor(((to - from) * k) / slices);
    const next = from + Math.floor(((to - from) * (k + 1)) / slices);
    return { start: iso(k === 0 ? from - 1e13 : start), end: iso(k === slices - 1 ? to + 1e13 : next - 1) };
  });
}

function rssMb(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string): number => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return { rss: Math.round(kb('VmRSS') / 1024), peak: Math.round(kb('VmHWM') / 1024) };
}

/** CPU seconds (user + system) the process has used so far, from /proc/<pid>/stat. */

interface Info {
  baseUrl: string;
  organizationId: string;
  environments: Array<{ id: string; kind: string; apiKey: string }>;
}

async function main(): Promise<void> {
  const started = performance.now();
  const args = ['dist/cli/main.js', 'sim', '--profile', 'stress', '--json', '--port', '0', '--seed', String(values.seed), '--scale', String(scale), ...(latencyMs > 0 ? ['--faults', `latency=${latencyMs}ms`] : [])];
  const child = spawn(process.execPath, [...(process.env['SIM_PROF'] ? ['--cpu-prof', '--cpu-prof-dir', process.env['SIM_PROF']] : []), ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  const pid = child.pid as number;
  const info = await new Promise<Info>((resolve, reject) => {
    createInterface({ input: child.stdout }).once('line', (line) => resolve(JSON.parse(line) as Info));
    child.once('exit', (code) => reject(new Error(`simulator exited with ${code}`)));
  });
  const startupMs = performance.now() - started;
  let peakSeen = 0;
  const sampler = setInterval(() => (peakSeen = Math.max(peakSeen, rssMb(pid).rss)), 250);

  const get = async (path: string, key: string): Promise<Record<string, unknown>> => {
    const res = await fetch(`${info.baseUrl}${path}`, { headers: { 'x-api-key': key } });
    if (res.status !== 200) throw new Error(`${path}: ${res.status} ${await res.text()}`);
    return (await res.json()) as Record<string, unknown>;
  };

  const t0 = performance.now();
  const chains: Array<{ env: Info['environments'][number]; walletId: string; window: { start: string; end: string } }> = [];
  let expected = 0;
  for (const env of info.environments) {
    const wallets = (await get(`/organizations/${info.organizationId}/wallets?inactive=true&environment_id=${env.id}`, env.apiKey)) as unknown as Array<{ id: string }>;
    for (const w of wallets) for (const window of windows()) chains.push({ env, walletId: w.id, window });
    expected += Number((await get(`/organizations/${info.organizationId}/environments/${env.id}/payments/summary?include_inactive=true`, env.apiKey))['total_count']);
  }
  const walletsMs = performance.now() - t0;

  const t1 = performance.now();
  const cpuBefore = processCpuSeconds(pid);
  let pulled = 0;
  let pages = 0;
  const queue = [...chains];
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (let chain = queue.shift(); chain; chain = queue.shift()) {
        let cursor: string | null = null;
        for (;;) {
          const filters = `limit=${limit}&wallet_id=${chain.walletId}&sort_order=ASC&start_date=${chain.window.start}&end_date=${chain.window.end}`;
          const q = cursor === null ? `pagination=cursor&${filters}` : `cursor=${encodeURIComponent(cursor)}&${filters}`;
          const page = await get(`/organizations/${info.organizationId}/environments/${chain.env.id}/payments?${q}`, chain.env.apiKey);
          pulled += (page['items'] as unknown[]).length;
          pages++;
          if (!page['has_more']) break;
          cursor = page['next_cursor'] as string;
        }
      }
    }),
  );
  const pullMs = performance.now() - t1;
  const serverCpuSeconds = Math.round((processCpuSeconds(pid) - cpuBefore) * 10) / 10;
  clearInterval(sampler);
  const mem = rssMb(pid);
  child.kill('SIGTERM');
  const result = {
    scale,
    concurrency,
    chains: chains.length,
    limit,
    latencyMs,
    startupMs: Math.round(startupMs),
    walletsAndSummariesMs: Math.round(walletsMs),
    pullMs: Math.round(pullMs),
    pages,
    paymentsPerSecond: Math.round(pulled / (pullMs / 1000)),
    serverCpuSeconds,
    pulled,
    expected,
    complete: pulled === expected,
    rssMb: mem.rss,
    peakRssMb: Math.max(mem.peak, peakSeen),
  };
  console.log(JSON.stringify(result, null, 2));
  if (!result.complete) process.exitCode = 1;
}

await main();
