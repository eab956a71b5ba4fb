import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ROOT, startSimChild, stopChild } from './e2e/sim-child.js';
import { WINDOW } from './e2e/export-run.js';

const mode = process.argv[2] ?? 'auto';
const { child: sim, info } = await startSimChild({ payments: 100_000, wallets: 200, seed: 11, latencyMs: 0 });
const work = mkdtempSync(path.join(os.tmpdir(), 'envp-rss-'));
writeFileSync(path.join(work, 'c.json'), JSON.stringify({ paymentsRead: mode }));
const args = [path.join(ROOT, 'dist/cli/main.js'), 'export', '--from', WINDOW.from, '--to', WINDOW.to, '--base-url', info.baseUrl, '--organization', info.organizationId, '--out', path.join(work, 'r'), '--format', 'csv,xlsx', '--database-url', process.env.DATABASE_URL!, '--schema', `envp_rss_${mode}_${Date.now() % 100000}`, '--concurrency', '8', '--log-format', 'json', '--page-size', '1000', '--config', path.join(work, 'c.json')];
const t0 = Date.now();
const job = spawn(process.execPath, args, { env: { ...process.env, PAYEXPORT_BEARER_TOKEN: info.bearerToken, PAYEXPORT_API_KEY: '' }, stdio: ['ignore', 'pipe', 'pipe'] });
let log = '';
job.stderr.on('data', (d) => (log += d));
job.stdout.on('data', (d) => (log += d));
const samples: string[] = [];
const timer = setInterval(() => {
  try {
    const rss = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${job.pid}/status`, 'utf8'))?.[1];
    samples.push(`${((Date.now() - t0) / 1000).toFixed(1)} ${Math.round(Number(rss) / 1024)}`);
  } catch {}
}, 500);
await new Promise((r) => job.on('exit', r));
clearInterval(timer);
await stopChild(sim);
const events = log.split('\n').filter((l) => /phase|whole|"msg":"(pull|report)/.test(l)).map((l) => { try { const j = JSON.parse(l); return `${((Date.parse(j.time ?? j.t ?? '') - t0) / 1000).toFixed(1)} ${j.msg}`; } catch { return l.slice(0, 120); } });
console.log(events.slice(0, 30).join('\n'));
console.log(samples.join('\n'));
writeFileSync(`/tmp/envp-probe/${mode}.log`, log);
