/**
 * The simulator as a child process of a benchmark: its own process (and core), so that its CPU
 * and memory are not counted as the job's. The built CLI when dist/ exists (what a user runs),
 * else the sources through tsx.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface SimInfo {
  baseUrl: string;
  organizationId: string;
  bearerToken: string;
}

export interface SimChildOptions {
  payments: number;
  wallets: number;
  seed: number;
  /** added by the simulator to every request */
  latencyMs: number;
  /** a JSON-lines request log */
  requestLog?: string;
}

export async function startSimChild(options: SimChildOptions): Promise<{ child: ChildProcess; info: SimInfo }> {
  const built = path.join(ROOT, 'dist/cli/main.js');
  const entry = existsSync(built) ? [built] : ['--import', 'tsx', path.join(ROOT, 'src/cli/main.ts')];
  const args = [
    ...(process.env.SIM_PROF ? ['--cpu-prof', '--cpu-prof-dir', process.env.SIM_PROF] : []),
    ...entry,
    'sim',
    // the dataset the benchmarks were measured on (docs/benchmarks.md): every extreme, not the demo's business
    '--profile',
    'stress',
    '--json',
    '--port',
    '0',
    '--seed',
    String(options.seed),
    '--scale',
    String(options.payments),
    '--wallets',
    String(options.wallets),
    ...(options.requestLog ? ['--request-log', options.requestLog] : []),
    ...(options.latencyMs > 0 ? ['--faults', `latency=${options.latencyMs}ms`] : []),
  ];
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'], cwd: ROOT });
  const info = await new Promise<SimInfo>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', (line) => resolve(JSON.parse(line) as SimInfo));
    child.once('exit', (code) => reject(new Error(`simulator exited with ${code}`)));
  });
  return { child, info };
}

/** SIGTERM lets the simulator flush its request log before it exits. */
export function stopChild(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}
