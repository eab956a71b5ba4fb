/**
 * One export profiled, for the next cut of issue 41 (docs/benchmarks.md "Issue 41"):
 *
 *   npm run -s build && npx tsx bench/profile-export.ts [--payments 50000] [--wallets 200] [--kind spool|server|embedded] [--keep DIR] [--node-flag=--FLAG …]
 *
 * runs `export` against a simulator child with no added latency (the same run as the bench's
 * issue41 section), under `--cpu-prof` and with bench/profile/thread-cpu.mjs preloaded, and prints
 * the job's CPU (every thread), its main thread's and its other threads' (collector, compiler,
 * libuv, the embedded engine), and the main thread's busy time by cost centre
 * (bench/profile/cpu-categories.ts). The profile is kept with --keep, for Chrome's DevTools.
 * `--cpu-prof` costs the main thread ~10–20 %, and its busy time is every sample not idle — time
 * blocked in a synchronous call (fsync, unlink) and time waiting for a core count — so it can exceed
 * the thread's CPU from /proc: compare shares, and take totals from the bench.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { runExport } from './e2e/export-run.js';
import { cpuCategories } from './profile/cpu-categories.js';

const { values } = parseArgs({
  options: {
    payments: { type: 'string', default: '50000' },
    wallets: { type: 'string', default: '200' },
    kind: { type: 'string', default: 'spool' },
    seed: { type: 'string', default: '11' },
    keep: { type: 'string' },
    'node-flag': { type: 'string', multiple: true },
  },
});
const kind = values.kind;
if (kind !== 'spool' && kind !== 'server' && kind !== 'embedded') throw new Error('--kind is spool, server or embedded');
const databaseUrl = kind === 'server' ? (process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test') : null;
const dir = values.keep ? path.resolve(values.keep) : mkdtempSync(path.join(os.tmpdir(), 'payexport-profile-'));
// a --keep folder need not exist yet (the job's --cpu-prof writes into it)
mkdirSync(dir, { recursive: true });
const threadFile = path.join(dir, 'threads.json');
process.env.PAYEXPORT_BENCH_THREAD_CPU = threadFile;
const preload = fileURLToPath(new URL('./profile/thread-cpu.mjs', import.meta.url));

try {
  const payments = Number(values.payments);
  const run = await runExport({
    payments,
    wallets: Number(values.wallets),
    seed: Number(values.seed),
    concurrency: 8,
    databaseUrl,
    ...(kind === 'spool' ? { extraArgs: ['--no-db'] } : {}),
    cpuProfDir: dir,
    nodeFlags: ['--import', preload, ...(values['node-flag'] ?? [])],
  });
  if (run.exitCode !== 0) throw new Error(`export exited ${run.exitCode}`);
  const threads = JSON.parse(readFileSync(threadFile, 'utf8')) as { mainSeconds: number; otherThreadsSeconds: number; byThread?: Record<string, number>; gc?: Record<string, { count: number; ms: number }> };
  const { busySeconds, categories } = cpuCategories(dir);
  const us = (seconds: number): string => `${((seconds * 1e6) / payments).toFixed(0)} µs`;
  console.log(`${kind}, ${payments} payments over ${values.wallets} wallets, under --cpu-prof`);
  console.log(`job CPU ${run.cpuSeconds.job.toFixed(1)} s (${us(run.cpuSeconds.job)} / payment): main thread ${threads.mainSeconds.toFixed(1)} s, other threads ${threads.otherThreadsSeconds.toFixed(1)} s`);
  console.log(`  main thread's collections: ${Object.entries(threads.gc ?? {}).map(([kind, g]) => `${kind} ${g.count} (${g.ms} ms)`).join(', ')}`);
  console.log(`  by thread (id, name): ${Object.entries(threads.byThread ?? {}).map(([name, s]) => `${name} ${s.toFixed(2)} s`).join(', ')}`);
  console.log(`main thread not idle in the profile ${busySeconds.toFixed(1)} s (blocked and waiting for a core included), by cost centre:`);
  for (const c of categories) console.log(`  ${c.category.padEnd(24)} ${c.seconds.toFixed(2).padStart(7)} s  ${(c.share * 100).toFixed(1).padStart(5)} %  ${us(c.seconds).padStart(8)}`);
} finally {
  if (!values.keep) rmSync(dir, { recursive: true, force: true });
}
